import type { InternalExam } from '@exam/domain/internal';
import { buildInternalExam } from '@exam/domain/testing';

/** Text only an answer key holds: a test that finds it in a candidate's response has found a leak. */
export const CANARY = 'CANARY-7f3e-correct-answer';

/**
 * A published, live, timed exam with one question of each auto-scored kind, a file upload and a coding question.
 * Its unanswered questions wait for a grader (unansweredPolicy 'grader'), so suites about marking find them pending;
 * the 'zero' policy, every real exam's default, is proven in grading/unanswered.test.ts.
 */
export function makeExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  return buildInternalExam({
    timerEnabled: true,
    timerMinutes: 30,
    unansweredPolicy: 'grader',
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
 * Unanswered questions wait for a grader (unansweredPolicy 'grader').
 */
export function makePointsExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  return buildInternalExam({
    // Unanswered questions wait for a grader here, as in makeExam.
    unansweredPolicy: 'grader',
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

/** Data only a hidden test holds: a candidate response that contains it has leaked a hidden test. */
export const HIDDEN = 'HIDDEN-9c1d-test-data';

/**
 * An exam with one MCQ (1 point) and a Python question graded by tests: two visible tests (1 and 2 points)
 * and a hidden one (3 points) whose input and expected output are HIDDEN. The question is worth 6.
 */
export function makeCodingExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  return buildInternalExam({
    questions: [
      { id: 'pick', type: 'mcq', title: 'Pick one', options: ['a', 'b'], correctAnswer: 'a', points: 1 },
      {
        id: 'sum',
        type: 'coding',
        title: 'Sum two numbers',
        language: 'python',
        starterCode: 'print(0)',
        points: 6,
        tests: [
          { id: 'small', name: 'Small numbers', stdin: '1 2', expected: '3', points: 1, visible: true },
          { id: 'large', name: 'Large numbers', stdin: '100 200', expected: '300', points: 2, visible: true },
          { id: 'secret', name: 'Edge case', stdin: HIDDEN, expected: `${HIDDEN}-out`, points: 3, visible: false },
        ],
      },
    ],
    ...overrides,
  });
}
