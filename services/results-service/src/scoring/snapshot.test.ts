import { QuestionSchema } from '@exam/domain/question';
import { buildInternalExam } from '@exam/domain/testing';
import { describe, expect, it } from 'vitest';
import { candidateView } from './candidate-view.ts';
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

describe('the further types in a snapshot', () => {
  const calculated = {
    id: 'calc',
    type: 'calculated',
    title: 'Double {x}',
    passageId: 'sheet',
    calculated: { formula: '2 * x', variables: [{ name: 'x', min: 1, max: 1000, decimals: 0 }] },
  };

  it('keeps the passages the questions refer to, the practice flag and the review window', () => {
    const exam = buildInternalExam({
      questions: [calculated, ...questions],
      passages: [
        { id: 'sheet', title: 'Sheet', content: 'Formulas' },
        { id: 'unused', title: 'Unused', content: 'Nobody' },
      ],
      practice: true,
      review: { enabled: true, closesAt: null, showFeedback: false },
    });
    const snapshot = toSnapshot(exam, 'attempt-3');
    expect(snapshot.passages).toEqual([{ id: 'sheet', title: 'Sheet', content: 'Formulas' }]);
    expect(snapshot).toMatchObject({ practice: true, review: { enabled: true, showFeedback: false } });
  });

  it('draws the calculated values after arranging, with the attempt’s seed, the same on every snapshot', () => {
    const exam = buildInternalExam({ questions: [calculated, ...questions], shuffleQuestions: true });
    const snapshot = toSnapshot(exam, 'attempt-4');
    const q = snapshot.questions.find((s) => s.id === 'calc')!;
    const x = q.calculated!.values!.x!;
    expect(q.title).toBe(`Double ${x}`);
    expect(q.acceptedAnswers).toEqual([String(2 * x)]);
    expect(toSnapshot(exam, 'attempt-4')).toEqual(snapshot);
    const others = ['a', 'b', 'c', 'd', 'e'].map((id) => toSnapshot(exam, id).questions.find((s) => s.id === 'calc'));
    expect(new Set(others.map((o) => o!.calculated!.values!.x)).size).toBeGreaterThan(1);
  });

  it('re-keys the values given with the current formula, keeping the text, even when the ranges changed', () => {
    const exam = buildInternalExam({ questions: [calculated] });
    const snapshot = toSnapshot(exam, 'attempt-5');
    const given = snapshot.questions[0]!;
    const x = given.calculated!.values!.x!;
    const changed = {
      ...exam,
      questions: [
        QuestionSchema.parse({
          ...calculated,
          calculated: { formula: '3 * x', variables: [{ name: 'x', min: 2000, max: 3000, decimals: 0 }] },
        }),
      ],
    };
    const next = withCurrentKeys(snapshot, changed).questions[0]!;
    expect(next.title).toBe(given.title);
    expect(next.calculated!.values).toEqual({ x });
    expect(next.acceptedAnswers).toEqual([String(3 * x)]);
    // Again from the regraded snapshot: the same values, the same key.
    expect(withCurrentKeys(withCurrentKeys(snapshot, changed), changed).questions[0]).toEqual(next);
  });

  it('shows a snapshot kept before passages and practice existed as an exam without them', () => {
    const exam = buildInternalExam({ questions });
    const { passages: _p, practice: _q, review: _r, ...old } = toSnapshot(exam, 'attempt-6');
    const view = candidateView({ examId: exam.id, examSnapshot: old }, exam, {});
    expect(view).toMatchObject({ passages: [], practice: false });
    expect(view.questions).toHaveLength(4);
  });
});
