import { hasUsableAiKey } from '@exam/domain/exam-ai';
import type { InternalExam } from '@exam/domain/internal';
import { creatorKey, NO_KEY, type ServerKeys } from '../chat/assistant-config.ts';

/** The provider call an exam's AI-suggested marks go to: the exam's own provider, model, key and endpoint. */
export type GradingTarget = {
  provider: InternalExam['aiSettings']['provider'];
  model: string;
  apiKey: string;
  baseUrl?: string;
};

export type GradingKeys = { encryptionKey: Buffer; serverKeys: ServerKeys; onDecryptFailure: () => void };

/**
 * What an exam's suggestions call, or undefined when its AI settings name no usable provider: no key of the
 * creator's or the server's for the provider (hasUsableAiKey), no model, or a self-hosted server without its
 * base URL. Unlike the candidates' assistant, suggestions do not need the assistant to be enabled: a creator
 * may grade with AI while candidates never see it.
 */
export function findGradingTarget(exam: InternalExam, keys: GradingKeys): GradingTarget | undefined {
  const ai = exam.aiSettings;
  const model = ai.model.trim();
  const selfHosted = ai.provider === 'openai-compatible';
  const ownKey = creatorKey(exam, keys.encryptionKey, keys.onDecryptFailure);
  const usable = hasUsableAiKey(ai, {
    hasCreatorKey: ownKey !== undefined,
    serverKeys: { [ai.provider]: Boolean(keys.serverKeys[ai.provider]) },
  });
  if (!usable || !model || (selfHosted && !ai.baseUrl)) return undefined;
  return {
    provider: ai.provider,
    model,
    apiKey: ownKey ?? keys.serverKeys[ai.provider] ?? NO_KEY,
    ...(selfHosted ? { baseUrl: ai.baseUrl } : {}),
  };
}
