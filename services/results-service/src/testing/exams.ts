import type { InternalExam } from '@exam/domain/internal';
import { buildInternalExam } from '@exam/domain/testing';

/** Text only an answer key holds: a test that finds it in a candidate's response has found a leak. */
export const CANARY = 'CANARY-7f3e-correct-answer';

/** A published, live, timed exam with one question of each auto-scored kind, a file upload and a coding question. */
export function makeExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  return buildInternalExam({
    timerEnabled: true,
    timerMinutes: 30,
    questions: [
      {
        id: 'q1',
        type: 'mcq',
        title: 'Cell powerhouse',
        options: ['Nucleus', CANARY, 'Ribosome'],
        correctAnswer: CANARY,
      },
      { id: 'q2', type: 'short-answer', title: 'Largest organ', acceptedAnswers: ['The Skin', CANARY + '-short'] },
      { id: 'q3', type: 'file-upload', title: 'Lab report' },
      { id: 'q4', type: 'coding', title: 'Fibonacci', language: 'python' },
    ],
    ...overrides,
  });
}
