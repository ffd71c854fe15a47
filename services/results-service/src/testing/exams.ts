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

/**
 * An exam worth 10 points: a 2-point MCQ (key 'a'), a 3-point multiple-answer MCQ with partial credit
 * (key a + b), a keyless 1-point MCQ and a 4-point essay upload marked with a rubric (thesis 1.5, sources 2.5).
 */
export function makePointsExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  return buildInternalExam({
    questions: [
      { id: 'pick', type: 'mcq', title: 'Pick one', options: ['a', 'b', 'c'], correctAnswer: 'a', points: 2 },
      {
        id: 'tick',
        type: 'mcq',
        title: 'Tick all',
        options: ['a', 'b', 'c'],
        multipleAnswers: true,
        correctAnswers: ['a', 'b'],
        scoring: 'partial',
        points: 3,
      },
      { id: 'opinion', type: 'mcq', title: 'Your view', options: ['x', 'y'] },
      { id: 'essay', type: 'file-upload', title: 'Essay', points: 4, rubricId: 'essay-rubric' },
    ],
    rubrics: [
      {
        id: 'essay-rubric',
        title: 'Essay',
        criteria: [
          { id: 'thesis', description: 'Clear thesis', points: 1.5 },
          { id: 'sources', description: 'Cites sources', points: 2.5 },
        ],
      },
    ],
    ...overrides,
  });
}
