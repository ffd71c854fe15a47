import { randomUUID } from 'node:crypto';
import type { AiProvider } from '@exam/domain/ai-catalogue';
import { AiSettingsViewSchema } from '@exam/domain/exam-ai';
import { QuestionSchema, type Question } from '@exam/domain/question';
import type { InternalExam } from '@exam/domain/internal';
import { buildInternalExam } from '@exam/domain/testing';
import { encryptSecret } from '@exam/server-kit/crypto';
import { TEST_ENCRYPTION_KEY } from './app.ts';

type ExamOverrides = {
  provider?: AiProvider;
  model?: string;
  apiKey?: string | null;
  questions?: Question[];
  materialTexts?: InternalExam['materialTexts'];
  ownerId?: string;
  ai?: Partial<InternalExam['aiSettings']>;
  /** The creators the exam is shared with (roles.ts). */
  members?: InternalExam['members'];
};

/**
 * An exam as exam-service's internal route returns it, with the assistant on (OpenAI, gpt-4o-mini by
 * default) and the creator's key encrypted with the test key.
 */
export function makeExam(overrides: ExamOverrides = {}): InternalExam {
  const id = randomUUID();
  const apiKey = overrides.apiKey === undefined ? `sk-creator-${id}` : overrides.apiKey;
  const aiSettings = AiSettingsViewSchema.parse({
    enabled: true,
    provider: overrides.provider ?? 'openai',
    model: overrides.model ?? 'gpt-4o-mini',
    hasApiKey: apiKey !== null,
    apiKeyLast4: apiKey ? apiKey.slice(-4) : null,
    courseMaterials: [],
  });
  return buildInternalExam({
    id,
    ownerId: overrides.ownerId ?? randomUUID(),
    title: 'Statistics midterm',
    questions: overrides.questions ?? [
      QuestionSchema.parse({
        id: 'q1',
        type: 'short-answer',
        title: 'What is a p-value?',
        acceptedAnswers: ['probability'],
      }),
    ],
    aiSettings: {
      ...aiSettings,
      ...overrides.ai,
      encryptedApiKey: apiKey ? encryptSecret(apiKey, Buffer.from(TEST_ENCRYPTION_KEY, 'base64url')) : null,
    },
    materialTexts: overrides.materialTexts ?? [],
    members: overrides.members ?? [],
  });
}
