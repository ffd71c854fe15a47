import { AI_CATALOGUE } from './ai-catalogue.ts';
import type { PublicAiSettings } from './exam-ai.ts';

/**
 * Spec sections 4 and 9: the greeting is the first message. The creator's welcome message wins;
 * otherwise a hello naming the provider, mentioning uploads when allowed and the course materials read.
 */
export function greetingOf(
  ai: Pick<PublicAiSettings, 'provider' | 'startMessage' | 'uploadDocuments' | 'materialNames'>,
): string {
  const welcome = ai.startMessage.trim();
  if (welcome) return welcome;
  const parts = [
    `Hello! I'm your AI assistant for this exam, powered by ${AI_CATALOGUE[ai.provider].label}. Ask me about the concepts behind the questions and I'll help you think them through.`,
  ];
  if (ai.uploadDocuments) parts.push('You can also attach files to your messages.');
  if (ai.materialNames.length > 0) parts.push(`I have read the course materials: ${ai.materialNames.join(', ')}.`);
  return parts.join(' ');
}
