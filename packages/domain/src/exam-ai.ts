import { z } from 'zod';
import { AI_PROVIDERS, type AiProvider } from './ai-catalogue.ts';
import { DEFAULT_FOLLOW_UP, FollowUpSettingsSchema, PublicFollowUpSchema } from './follow-up.ts';
import { DEFAULT_PLANTED_SHARE, PlantedErrorsSettingsSchema } from './planted-errors.ts';
import { text } from './question.ts';

/** An exam's assistant: its settings, budgets and course materials (docs/product.md#the-assistant). */

export const DEFAULT_CONTEXT_LENGTH = 1000;
export const DEFAULT_ASSISTANCE_LEVEL = 5;

export const CourseMaterialSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  mimeType: z.string(),
  /** Characters of text extracted on upload. */
  textLength: z.number().int().nonnegative(),
});
export type CourseMaterial = z.infer<typeof CourseMaterialSchema>;

/**
 * Defaults of the exam-wide budget: what every attempt of one exam may spend together in any hour. A class of
 * 30 asking about 20 questions an hour each sends 600 messages; one exchange carries the system prompt (the
 * questions and up to contextLength characters of material), the history and a reply of at most 1000 tokens,
 * typically 1,000–2,000 tokens, so 600 of them need about 1,000,000 tokens. A flood of new attempts can then
 * spend at most that much of the creator's key per hour (the per-attempt limits alone grow with every attempt
 * started); a creator with a larger class raises both.
 */
export const DEFAULT_EXAM_TOKENS_PER_HOUR = 1_000_000;
export const DEFAULT_EXAM_REQUESTS_PER_HOUR = 600;
export const DEFAULT_GRADING_TOKENS = 400_000;

export const AiBudgetSchema = z.object({
  messagesPerWindow: z.number().int().min(1).max(1000).default(20),
  windowMinutes: z.number().int().min(1).max(240).default(10),
  tokensPerAttempt: z.number().int().min(1000).max(5_000_000).default(100_000),
  /** The exam-wide budget: tokens (prompt and reply) all attempts of the exam may use in any 60 minutes. */
  examTokensPerHour: z
    .number({ error: 'Enter a whole number of tokens' })
    .int('Enter a whole number of tokens')
    .min(1000, 'At least 1,000 tokens per hour')
    .max(100_000_000, 'At most 100,000,000 tokens per hour')
    .default(DEFAULT_EXAM_TOKENS_PER_HOUR),
  /** The exam-wide budget: messages all attempts of the exam may send in any 60 minutes. */
  examRequestsPerHour: z
    .number({ error: 'Enter a whole number of messages' })
    .int('Enter a whole number of messages')
    .min(1, 'At least 1 message per hour')
    .max(100_000, 'At most 100,000 messages per hour')
    .default(DEFAULT_EXAM_REQUESTS_PER_HOUR),
  /**
   * The grading budget: tokens (prompt and reply, every sample) all AI-suggested marks of the exam may use
   * together, for its whole life. A suggestion of a short answer with three samples is about 2,000–3,000 tokens,
   * so the default covers some 150 answers; a creator with a larger cohort raises it.
   */
  gradingTokens: z
    .number({ error: 'Enter a whole number of tokens' })
    .int('Enter a whole number of tokens')
    .min(0, 'At least 0 tokens')
    .max(100_000_000, 'At most 100,000,000 tokens')
    .default(DEFAULT_GRADING_TOKENS),
});
export type AiBudget = z.infer<typeof AiBudgetSchema>;
export const DEFAULT_AI_BUDGET: AiBudget = {
  messagesPerWindow: 20,
  windowMinutes: 10,
  tokensPerAttempt: 100_000,
  examTokensPerHour: DEFAULT_EXAM_TOKENS_PER_HOUR,
  examRequestsPerHour: DEFAULT_EXAM_REQUESTS_PER_HOUR,
  gradingTokens: DEFAULT_GRADING_TOKENS,
};

const aiSettingsFields = {
  enabled: z.boolean().default(false),
  provider: z.enum(AI_PROVIDERS).default('openai'),
  model: text(200).default('gpt-4o-mini'),
  /** Only for the openai-compatible provider. */
  baseUrl: z.union([z.url({ protocol: /^https?$/ }), z.literal('')]).default(''),
  customPrompt: text(20000).default(''),
  startMessage: text(5000).default(''),
  stopSolutions: z.boolean().default(true),
  copyLLMResponse: z.boolean().default(true),
  uploadDocuments: z.boolean().default(false),
  processCode: z.boolean().default(false),
  courseAssistanceEnabled: z.boolean().default(false),
  courseAssistanceLevel: z.number().int().min(0).max(10).default(DEFAULT_ASSISTANCE_LEVEL),
  contextLength: z.number().int().min(100).max(10000).default(DEFAULT_CONTEXT_LENGTH),
  budget: AiBudgetSchema.default(() => ({ ...DEFAULT_AI_BUDGET })),
  /** Reliance calibration (planted-errors.ts): the assistant is sometimes wrong on purpose, disclosed in the briefing. */
  plantedErrors: PlantedErrorsSettingsSchema.default({ enabled: false, share: DEFAULT_PLANTED_SHARE }),
  /** Follow-up questions after submit (follow-up.ts): off unless the creator turns them on. */
  followUp: FollowUpSettingsSchema.default(() => structuredClone(DEFAULT_FOLLOW_UP)),
};

/**
 * aiSettings as a creator writes them. `apiKey` is write-only: a string sets it, null clears it,
 * omitted keeps the stored one. Materials are uploaded separately; here only their ids are kept.
 */
export const AiSettingsInputSchema = z.object({
  ...aiSettingsFields,
  apiKey: z.string().max(500).nullable().optional(),
  courseMaterialIds: z.array(z.string()).max(50).default([]),
});
export type AiSettingsInput = z.infer<typeof AiSettingsInputSchema>;

/** aiSettings as any API returns them: never the key, only whether one is set and its last four characters. */
export const AiSettingsViewSchema = z.object({
  ...aiSettingsFields,
  hasApiKey: z.boolean(),
  apiKeyLast4: z.string().nullable(),
  courseMaterials: z.array(CourseMaterialSchema),
});
export type AiSettingsView = z.infer<typeof AiSettingsViewSchema>;

/** The candidate's view of the assistant: enough to show the panel, nothing secret. */
export const PublicAiSettingsSchema = z.object({
  enabled: z.boolean(),
  provider: z.enum(AI_PROVIDERS),
  model: z.string(),
  startMessage: z.string(),
  copyLLMResponse: z.boolean(),
  uploadDocuments: z.boolean(),
  /** Names of the course materials the assistant has read (for the greeting), not their text. */
  materialNames: z.array(z.string()),
  /** The briefing discloses that the assistant is sometimes wrong on purpose (planted-errors.ts). */
  plantedErrors: z.boolean().optional(),
  /** Follow-up questions after submit (follow-up.ts): how many and how long each; null or absent when off. */
  followUp: PublicFollowUpSchema.nullable().optional(),
  /** What keeps the assistant from working, in the spec's words ('API key missing.' …); empty when ready. */
  missing: z.array(z.string()),
});
export type PublicAiSettings = z.infer<typeof PublicAiSettingsSchema>;

/** Spec section 5 ('AI panel requires enabled, provider and model, and lists what is missing'). */
export function missingAiConfiguration(ai: { provider?: string; model?: string; hasKey: boolean }): string[] {
  const missing: string[] = [];
  if (!ai.hasKey) missing.push('API key missing.');
  if (!ai.provider) missing.push('Provider not selected.');
  if (!ai.model) missing.push('Model not selected.');
  return missing;
}

/**
 * Whether the assistant has a key to work with: the creator's own, the server's default for that
 * provider, or a self-hosted OpenAI-compatible server (which needs only its base URL).
 */
export function hasUsableAiKey(
  ai: { provider: AiProvider; baseUrl: string },
  keys: { hasCreatorKey: boolean; serverKeys: Partial<Record<AiProvider, boolean>> },
): boolean {
  return (
    keys.hasCreatorKey ||
    keys.serverKeys[ai.provider] === true ||
    (ai.provider === 'openai-compatible' && ai.baseUrl !== '')
  );
}

export const CourseMaterialListSchema = z.object({ materials: z.array(CourseMaterialSchema) });
export type CourseMaterialList = z.infer<typeof CourseMaterialListSchema>;

/** Course material uploads (pdf, doc, docx and txt, several at once). */
export const COURSE_MATERIAL_EXTENSIONS = ['pdf', 'doc', 'docx', 'txt'] as const;
