import { describe, expect, it } from 'vitest';
import { CreateExamSchema, UpdateExamSchema } from './exam.ts';
import { QuestionSchema } from './question.ts';

const issuesOf = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  (result.error?.issues ?? []).map((i) => ({ path: i.path.join('.'), message: i.message }));

describe('question points and keys', () => {
  it('gives every question 1 point by default and keeps up to two decimals', () => {
    expect(QuestionSchema.parse({ id: 'q1', type: 'file-upload', title: 'Report' }).points).toBe(1);
    expect(QuestionSchema.parse({ id: 'q1', type: 'file-upload', title: 'Report', points: 2.25 }).points).toBe(2.25);
  });

  it('refuses points of 0 or less, or with more than two decimals, naming the field', () => {
    for (const points of [0, -1, 1.234]) {
      const result = QuestionSchema.safeParse({ id: 'q1', type: 'coding', title: 'Fib', points });
      expect(result.success).toBe(false);
      expect(issuesOf(result)[0]?.path).toBe('points');
    }
  });

  it("folds a short answer's correctAnswer into its accepted answers instead of ignoring it", () => {
    const q = QuestionSchema.parse({ id: 'q1', type: 'short-answer', title: 'Capital', correctAnswer: 'Paris' });
    expect(q.acceptedAnswers).toEqual(['Paris']);
    expect(q.correctAnswer).toBeUndefined();
    const both = QuestionSchema.parse({
      id: 'q1',
      type: 'short-answer',
      title: 'Capital',
      correctAnswer: 'Paris',
      acceptedAnswers: ['Paris', 'paris, france'],
    });
    expect(both.acceptedAnswers).toEqual(['Paris', 'paris, france']);
  });

  it('refuses a multiple-answer key that is not among the options, naming the entry', () => {
    const result = QuestionSchema.safeParse({
      id: 'q1',
      type: 'mcq',
      title: 'Primes',
      options: ['2', '3', '4'],
      multipleAnswers: true,
      correctAnswers: ['2', '9'],
    });
    expect(issuesOf(result)).toEqual([
      { path: 'correctAnswers.1', message: 'Each correct answer must be one of the options' },
    ]);
  });
});

describe('rubrics on an exam', () => {
  const rubric = {
    id: 'r1',
    title: 'Lab report',
    criteria: [
      { id: 'c1', description: 'Method', points: 2 },
      { id: 'c2', description: 'Result', points: 1.5 },
    ],
  };
  const question = (points: number, rubricId: string | null) => ({
    id: 'q1',
    type: 'file-upload',
    title: 'Report',
    points,
    rubricId,
  });

  it('accepts a rubric that fits within the question it marks, reused by two questions', () => {
    const exam = CreateExamSchema.parse({
      questions: [question(4, 'r1'), { ...question(3.5, 'r1'), id: 'q2' }],
      rubrics: [rubric],
    });
    expect(exam.questions.map((q) => q.rubricId)).toEqual(['r1', 'r1']);
  });

  it('refuses a rubric whose criteria exceed the question, and an unknown rubric, naming the question', () => {
    const over = CreateExamSchema.safeParse({ questions: [question(3, 'r1')], rubrics: [rubric] });
    expect(issuesOf(over)).toEqual([
      {
        path: 'questions.0.rubricId',
        message: "The rubric's criteria add up to 3.5 points, more than the question's 3",
      },
    ]);
    const unknown = UpdateExamSchema.safeParse({ questions: [question(3, 'nope')], rubrics: [] });
    expect(issuesOf(unknown)[0]?.path).toBe('questions.0.rubricId');
  });

  it('defaults the release policy to release by the creator, without answer keys', () => {
    const exam = CreateExamSchema.parse({});
    expect(exam.releasePolicy).toBe('on-release');
    expect(exam.showAnswerKeys).toBe(false);
  });
});
