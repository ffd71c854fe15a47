import { InternalExamSchema, type InternalExam } from './internal.ts';
import type { TestVerdict } from './coding.ts';

/**
 * Test factory shared by every service's suite: an exam as exam-service's internal route returns it
 * (published, live, no timer, assistant off). Overrides replace whole fields; the result is parsed, so a
 * test cannot build an exam the contract would refuse. Never imported by production code (eslint.config.js).
 */
export function buildInternalExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  const now = new Date().toISOString();
  return InternalExamSchema.parse({
    id: `exam-${crypto.randomUUID()}`,
    ownerId: `owner-${crypto.randomUUID()}`,
    title: 'Biology midterm',
    isLive: true,
    isDraft: false,
    publishedAt: now,
    createdAt: now,
    lastEditedAt: now,
    updatedAt: now,
    questions: [{ id: 'q1', type: 'short-answer', title: 'Largest organ', acceptedAnswers: ['skin'] }],
    aiSettings: { hasApiKey: false, apiKeyLast4: null, courseMaterials: [], encryptedApiKey: null },
    materialTexts: [],
    hasAccessCode: false,
    ...overrides,
  });
}

/** One test's verdict as the runner reports it: a passed one-point test unless `overrides` say otherwise. */
export function makeVerdict(overrides: Partial<TestVerdict> = {}): TestVerdict {
  return {
    testId: 'a',
    name: 'Small',
    visible: true,
    outcome: 'passed',
    points: 1,
    maxPoints: 1,
    timeMs: 12,
    exitCode: 0,
    ...overrides,
  };
}
