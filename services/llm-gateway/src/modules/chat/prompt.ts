import type { InternalExam } from '@exam/domain/internal';
import { plantedInstruction } from '@exam/domain/planted-errors';
import type { PublicQuestion } from '@exam/domain/question';
import type { ProviderMessage } from '../../adapters/providers/types.ts';

/** Spec section 9: every AI request asks for at most 1000 tokens. */
export const MAX_TOKENS = 1000;
export const DEFAULT_TEMPERATURE = 0.7;

type AiSettings = InternalExam['aiSettings'];

export const PromptText = {
  base: 'You are a helpful AI assistant for a candidate taking an exam. Follow the guidelines set by the exam creator below.',
  stopSolutions:
    'Do not provide complete solutions or final answers to the exam questions. Guide the candidate with explanations, hints and questions so that they reach the answer themselves.',
  noCodeExecution:
    'Do not execute, run or debug code for the candidate, and do not predict the exact output of their code. You may explain concepts, syntax and error messages in general terms.',
} as const;

/** Spec section 9: very clear above 0.7, moderate above 0.4, otherwise ambiguous. */
export function clarityOf(level: number): 'very clear' | 'moderate' | 'ambiguous' {
  const ratio = level / 10;
  if (ratio > 0.7) return 'very clear';
  if (ratio > 0.4) return 'moderate';
  return 'ambiguous';
}

/** Spec section 9: max(0.1, 1 − level/10) when course assistance applies, 0.7 otherwise. */
export function temperatureOf(ai: Pick<AiSettings, 'courseAssistanceEnabled' | 'courseAssistanceLevel'>): number {
  if (!ai.courseAssistanceEnabled) return DEFAULT_TEMPERATURE;
  return Math.round(Math.max(0.1, 1 - ai.courseAssistanceLevel / 10) * 100) / 100;
}

/** A question as the assistant may see it: never correctAnswer or acceptedAnswers. */
function describeQuestion(question: PublicQuestion, index: number): string {
  const lines = [
    `Q${index + 1}: ${question.title || `Question ${index + 1}`} (${question.type}${question.language ? `, ${question.language}` : ''})`,
  ];
  if (question.content.trim()) lines.push(question.content.trim());
  if (question.type === 'mcq' && question.options.length) {
    lines.push(
      `Options: ${question.options.map((option, i) => `${String.fromCharCode(65 + i)}) ${option}`).join('; ')}`,
    );
  }
  return lines.join('\n');
}

function materialsExcerpt(materials: InternalExam['materialTexts'], contextLength: number): string {
  const joined = materials
    .filter((m) => m.text.trim())
    .map((m) => `[${m.name}]\n${m.text.trim()}`)
    .join('\n\n');
  return joined.slice(0, contextLength);
}

/** questions: the candidate's view of them (answer keys are never needed, and never read). */
export type PromptInput = Pick<InternalExam, 'materialTexts'> & {
  questions: PublicQuestion[];
  aiSettings: AiSettings;
  questionIndex: number | null;
  /** A planted turn (planted-turn.ts): the error this reply is asked to state, about the question at its index. */
  planted?: { questionIndex: number; error: string } | undefined;
};

/** The system prompt, assembled by the gateway from the exam's settings (docs/product.md#the-assistant); never by the browser. */
export function buildSystemPrompt(input: PromptInput): string {
  const ai = input.aiSettings;
  const sections: string[] = [PromptText.base];
  if (input.questions.length) {
    sections.push(`The exam's questions:\n\n${input.questions.map(describeQuestion).join('\n\n')}`);
    const current = input.questionIndex;
    if (current !== null && current >= 0 && current < input.questions.length)
      sections.push(`The candidate is currently looking at Q${current + 1}.`);
  }
  if (ai.customPrompt.trim())
    sections.push(`The exam creator's guidelines (follow them strictly):\n${ai.customPrompt.trim()}`);
  if (ai.stopSolutions) sections.push(PromptText.stopSolutions);
  if (!ai.processCode) sections.push(PromptText.noCodeExecution);
  if (ai.courseAssistanceEnabled) {
    const level = ai.courseAssistanceLevel;
    sections.push(
      `Course assistance is enabled at level ${level} of 10: help the candidate understand the course concepts behind the questions, and keep your explanations ${clarityOf(level)}.`,
    );
  }
  const excerpt = materialsExcerpt(input.materialTexts, ai.contextLength);
  if (excerpt) sections.push(`Course materials (excerpt):\n${excerpt}`);
  // Last, so nothing after it reads as taking it back; the format is the domain's, which the fakes read.
  if (input.planted) sections.push(plantedInstruction(input.planted.questionIndex + 1, input.planted.error));
  return sections.join('\n\n');
}

/**
 * The conversation as providers accept it: starts with the user, and turns alternate (consecutive
 * turns of one role, left when an error reply was dropped, are merged).
 */
export function normaliseConversation(messages: ProviderMessage[]): ProviderMessage[] {
  const result: ProviderMessage[] = [];
  for (const message of messages) {
    const last = result.at(-1);
    if (!last && message.role === 'assistant') continue;
    if (last && last.role === message.role) {
      last.content = `${last.content}\n\n${message.content}`;
      if (message.images?.length) last.images = [...(last.images ?? []), ...message.images];
      continue;
    }
    result.push({ ...message, ...(message.images ? { images: [...message.images] } : {}) });
  }
  return result;
}
