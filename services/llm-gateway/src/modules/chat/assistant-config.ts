import { AI_CATALOGUE, type AiProvider } from '@exam/domain/ai-catalogue';
import { AuditMessages, type AuditConfiguration } from '@exam/domain/assistant-audit';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { missingAiConfiguration, type AiSettingsInput } from '@exam/domain/exam-ai';
import type { InternalExam } from '@exam/domain/internal';
import { LlmMessages } from '@exam/domain/llm';
import { decryptSecret, encryptSecret } from '@exam/server-kit/crypto';

export type ServerKeys = Partial<Record<AiProvider, string>>;

/** The provider call an exam's settings allow: provider, model, key and endpoint. */
export type AssistantTarget = {
  provider: AiProvider;
  model: string;
  apiKey: string;
  baseUrl?: string;
  vision: boolean;
};

// Self-hosted OpenAI-compatible servers often need no key; the SDK still wants a non-empty one.
export const NO_KEY = 'none';

/** The creator's own key of an exam, decrypted; undefined when none is set or it cannot be read. */
export function creatorKey(
  exam: InternalExam,
  encryptionKey: Buffer,
  onDecryptFailure: () => void,
): string | undefined {
  const encrypted = exam.aiSettings.encryptedApiKey;
  if (!encrypted) return undefined;
  try {
    return decryptSecret(encrypted, encryptionKey);
  } catch {
    onDecryptFailure();
    return undefined;
  }
}

/**
 * Resolves what the assistant of an exam calls, or refuses: 403 when it is off, 409 listing what is
 * missing ('API key missing.' …) when it is incomplete. The creator's key is decrypted here and nowhere else;
 * without one the server's key for that provider serves the exam.
 */
export function resolveAssistant(
  exam: InternalExam,
  opts: { encryptionKey: Buffer; serverKeys: ServerKeys; onDecryptFailure: () => void },
): AssistantTarget {
  const ai = exam.aiSettings;
  if (!ai.enabled) throw new AppError(ErrorCode.FORBIDDEN, LlmMessages.notEnabled);
  const selfHosted = ai.provider === 'openai-compatible';
  const apiKey = creatorKey(exam, opts.encryptionKey, opts.onDecryptFailure) ?? opts.serverKeys[ai.provider];
  const missing = missingAiConfiguration({
    provider: ai.provider,
    model: ai.model.trim(),
    hasKey: Boolean(apiKey) || selfHosted,
  });
  if (selfHosted && !ai.baseUrl) missing.push('Base URL missing.');
  if (missing.length) {
    throw new AppError(
      ErrorCode.CONFLICT,
      `${LlmMessages.configurationIncomplete} ${missing.join(' ')}`,
      missing.map((message) => ({ path: 'aiSettings', message })),
    );
  }
  const vision = AI_CATALOGUE[ai.provider].models.find((m) => m.id === ai.model)?.vision ?? false;
  return {
    provider: ai.provider,
    model: ai.model.trim(),
    apiKey: apiKey ?? NO_KEY,
    ...(selfHosted ? { baseUrl: ai.baseUrl } : {}),
    vision,
  };
}

/** The configuration an exam's own assistant has (configuration 0 of an audit or a compared solvability check). */
export const ownConfiguration = (exam: InternalExam): AuditConfiguration => ({
  provider: exam.aiSettings.provider,
  model: exam.aiSettings.model.trim(),
  baseUrl: exam.aiSettings.provider === 'openai-compatible' ? exam.aiSettings.baseUrl : '',
});

/**
 * The exam as a compared configuration would run it (issue 34, provider equivalence): the same questions,
 * prompt, materials and guardrails, another provider, model or endpoint. The exam's own key goes only to the
 * exam's own provider (and, self-hosted, its own base URL); otherwise the server's key for that provider serves
 * it, or none for a self-hosted server. Without a usable key: 400 naming `compareWith.<position>.provider`.
 */
export function examWithConfiguration(
  exam: InternalExam,
  configuration: AuditConfiguration,
  position: number,
  opts: { serverKeys: ServerKeys },
): InternalExam {
  const own = ownConfiguration(exam);
  const sameEndpoint =
    configuration.provider === own.provider &&
    (configuration.provider !== 'openai-compatible' || configuration.baseUrl === own.baseUrl);
  const selfHosted = configuration.provider === 'openai-compatible';
  const hasKey =
    (sameEndpoint && Boolean(exam.aiSettings.encryptedApiKey)) ||
    Boolean(opts.serverKeys[configuration.provider]) ||
    (selfHosted && configuration.baseUrl !== '');
  if (!hasKey)
    throw new AppError(ErrorCode.VALIDATION, AuditMessages.noKeyFor(AI_CATALOGUE[configuration.provider].label), [
      {
        path: `compareWith.${position}.provider`,
        message: AuditMessages.noKeyFor(AI_CATALOGUE[configuration.provider].label),
      },
    ]);
  return {
    ...exam,
    aiSettings: {
      ...exam.aiSettings,
      provider: configuration.provider,
      model: configuration.model,
      baseUrl: configuration.baseUrl,
      encryptedApiKey: sameEndpoint ? exam.aiSettings.encryptedApiKey : null,
    },
  };
}

/**
 * The exam as the editor's unsaved AI settings would run it (the Test Assistant tries what is on screen, so the
 * creator need not save and leave the editor): every setting from the draft; the key typed in the draft, none
 * when the draft clears it, the stored one otherwise; the saved materials the draft still lists, in its order.
 * What a save would refuse is refused here too: the body is checked with the same schema, and the result goes
 * through resolveAssistant and the base-URL guard like the saved settings.
 */
export function examWithDraftSettings(exam: InternalExam, draft: AiSettingsInput, encryptionKey: Buffer): InternalExam {
  const { apiKey, courseMaterialIds, ...fields } = draft;
  const typedKey = apiKey?.trim();
  const encryptedApiKey =
    apiKey === undefined || (apiKey !== null && !typedKey)
      ? exam.aiSettings.encryptedApiKey
      : typedKey
        ? encryptSecret(typedKey, encryptionKey)
        : null;
  // courseMaterials and materialTexts come from exam-service in the same order (the saved courseMaterialIds).
  const saved = exam.aiSettings.courseMaterials.map((material, i) => ({ material, text: exam.materialTexts[i] }));
  const kept = courseMaterialIds.flatMap((id) => saved.filter((s) => s.material.id === id));
  return {
    ...exam,
    aiSettings: {
      ...exam.aiSettings,
      ...fields,
      encryptedApiKey,
      hasApiKey: encryptedApiKey !== null,
      courseMaterials: kept.map((s) => s.material),
    },
    materialTexts: kept.flatMap((s) => (s.text ? [s.text] : [])),
  };
}
