import { QuestionSchema } from '@exam/domain/question';
import { buildInternalExam } from '@exam/domain/testing';
import { describe, expect, it } from 'vitest';
import { toSnapshot, withCurrentKeys } from './snapshot.ts';

const questions = [
  { id: 'fixed', type: 'mcq', title: 'Fixed', options: ['a', 'b', 'c', 'd'], correctAnswer: 'b', points: 2 },
  ...['p1', 'p2', 'p3'].map((id) => ({
    id,
    type: 'short-answer',
    title: id,
    acceptedAnswers: [id],
    poolId: 'pool',
  })),
];
const pool = { id: 'pool', title: 'Pool', draw: 2, points: 4 };

describe('toSnapshot', () => {
  it('keeps the exam as written when it neither shuffles nor has pools', () => {
    const exam = buildInternalExam({ questions });
    const snapshot = toSnapshot(exam, 'attempt-1');
    expect(snapshot.questions).toEqual(exam.questions);
    expect(snapshot.arrangement).toBeUndefined();
  });

  it('keeps the candidate’s draw and order, the same for the same attempt, with where each question came from', () => {
    const exam = buildInternalExam({ questions, pools: [pool], shuffleQuestions: true, shuffleOptions: true });
    const snapshot = toSnapshot(exam, 'attempt-1');
    expect(toSnapshot(exam, 'attempt-1')).toEqual(snapshot);
    expect(snapshot.questions).toHaveLength(3);
    expect(snapshot.arrangement).toMatchObject({ seed: 'attempt-1', examQuestionCount: 4 });
    snapshot.questions.forEach((q, i) => {
      const source = exam.questions[snapshot.arrangement!.sourceIndices[i]!]!;
      expect(q.id).toBe(source.id);
      expect(q.points).toBe(source.poolId ? 4 : 2);
      expect([...q.options].sort()).toEqual([...source.options].sort());
      expect(q.correctAnswer).toBe(source.correctAnswer);
    });
  });
});

describe('withCurrentKeys', () => {
  it('takes the pool’s current points for a drawn question and keeps the candidate’s order and options', () => {
    const exam = buildInternalExam({ questions, pools: [pool], shuffleQuestions: true, shuffleOptions: true });
    const snapshot = toSnapshot(exam, 'attempt-2');
    const changed = {
      ...exam,
      pools: [{ ...pool, points: 5 }],
      questions: exam.questions.map((q) => (q.id === 'fixed' ? QuestionSchema.parse({ ...q, correctAnswer: 'c' }) : q)),
    };
    const next = withCurrentKeys(snapshot, changed);
    expect(next.questions.map((q) => q.id)).toEqual(snapshot.questions.map((q) => q.id));
    expect(next.questions.map((q) => q.options)).toEqual(snapshot.questions.map((q) => q.options));
    next.questions.forEach((q) => {
      if (q.id === 'fixed') expect(q).toMatchObject({ points: 2, correctAnswer: 'c' });
      else expect(q.points).toBe(5);
    });
    expect(next.arrangement).toEqual(snapshot.arrangement);
  });
});
