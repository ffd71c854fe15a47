import { QuestionSchema } from '@exam/domain/question';
import { isAnswered } from '@exam/domain/answer-text';
import { encodeChoices } from '@exam/domain/grading';
import { describe, expect, it } from 'vitest';
import { applyGradingEntries, gradeChanges } from './marks.ts';
import { gradeSubmission, nextResultState, scoreAttempt, type StoredGrade } from './score.ts';
import { parseSnapshot, withCurrentKeys, type ExamSnapshot } from './snapshot.ts';

function snapshot(questions: unknown[], extra: Partial<ExamSnapshot> = {}): ExamSnapshot {
  return {
    ...parseSnapshot({
      title: 'Quiz',
      ownerId: 'owner',
      timerEnabled: false,
      timerMinutes: 60,
      questions,
      codingWorkspace: {},
    }),
    ...extra,
  };
}

const exam = snapshot(
  [
    { id: 'mcq', type: 'mcq', title: 'Pick', options: ['a', 'b', 'c'], correctAnswer: 'a', points: 2 },
    {
      id: 'multi',
      type: 'mcq',
      title: 'Tick',
      options: ['a', 'b', 'c'],
      multipleAnswers: true,
      correctAnswers: ['a', 'b'],
      scoring: 'partial',
      points: 3,
    },
    { id: 'keyless', type: 'mcq', title: 'Opinion', options: ['x', 'y'] },
    { id: 'essay', type: 'file-upload', title: 'Essay', points: 4, rubricId: 'r' },
  ],
  {
    rubrics: [
      {
        id: 'r',
        title: 'Essay',
        criteria: [
          { id: 'thesis', description: 'Clear thesis', points: 1.5 },
          { id: 'sources', description: 'Cites sources', points: 2.5 },
        ],
      },
    ],
    // The suites below mark questions a grader must decide; the 'zero' policy has its own tests.
    unansweredPolicy: 'grader',
  },
);

describe('scoring a submission', () => {
  it('scores keys in points with partial credit, and leaves keyless questions pending instead of wrong', () => {
    const saved = new Map([
      [0, 'a'],
      [1, encodeChoices(['a'])],
      [2, 'x'],
    ]);
    const graded = gradeSubmission(exam, saved);
    expect(graded.grades.map((g) => [g.points, g.autoScored, g.manual])).toEqual([
      [2, true, false],
      [1.5, true, false],
      [null, false, false],
      [null, false, false],
    ]);
    expect(graded).toMatchObject({ score: 3.5, maxScore: 10, status: 'pending', pendingCount: 2, answeredCount: 3 });
  });

  it("scores unanswered questions 0 under the 'zero' policy (the default), marked, so only answered ones wait", () => {
    const zero = { ...exam, unansweredPolicy: undefined };
    const blank = gradeSubmission(zero, new Map([[2, 'x']]));
    expect(blank.grades.map((g) => [g.points, g.autoScored, g.unanswered ?? false])).toEqual([
      [0, true, true],
      [0, true, true],
      [null, false, false],
      [0, true, true],
    ]);
    expect(blank).toMatchObject({ score: 0, status: 'pending', pendingCount: 1 });
    // A grader marks the one answered question: nothing else waits, the result is graded.
    const marked = applyGradingEntries(zero, blank.grades, [
      { questionIndex: 2, points: 1, feedback: '', criteria: [] },
    ]);
    const graded = scoreAttempt(zero, [undefined, undefined, 'x', undefined], marked, { released: false });
    expect(graded.totals).toMatchObject({ score: 1, status: 'graded', pendingCount: 0 });
    // A grader's own mark of an unanswered question replaces the automatic 0 and its marker.
    const overridden = applyGradingEntries(zero, graded.grades, [
      { questionIndex: 3, points: 2, feedback: 'Sent by e-mail', criteria: [] },
    ]);
    const after = scoreAttempt(zero, [undefined, undefined, 'x', undefined], overridden, { released: false });
    expect(after.grades[3]).toMatchObject({ points: 2, manual: true });
    expect(after.grades[3]?.unanswered).toBeUndefined();
  });

  it('reads questions stored without points as worth 1', () => {
    const old = parseSnapshot({
      title: 'Old',
      ownerId: 'o',
      timerEnabled: false,
      timerMinutes: 60,
      questions: [
        { id: 'q', type: 'mcq', title: 'Pick', content: '', topic: '', options: ['a', 'b'], correctAnswer: 'a' },
      ],
      codingWorkspace: { enabled: false, saveFilesInResults: true, workspaceType: 'vscode' },
    });
    expect(old.questions[0]?.points).toBe(1);
    expect(old.version).toBe(2);
    // A snapshot of this version is read as stored.
    expect(parseSnapshot(old)).toBe(old);
    expect(gradeSubmission(old, new Map([[0, 'a']]))).toMatchObject({ score: 1, maxScore: 1, status: 'graded' });
  });

  it('counts a multiple-answer MCQ as answered only once a box is ticked', () => {
    const multi = exam.questions[1]!;
    expect(isAnswered(multi, encodeChoices([]))).toBe(false);
    expect(isAnswered(multi, encodeChoices(['c']))).toBe(true);
    expect(isAnswered(exam.questions[0]!, '  ')).toBe(false);
  });
});

describe("a grader's marks", () => {
  const submitted = gradeSubmission(exam, new Map([[0, 'b']])).grades;

  it('override the key, keep their feedback and criteria, and come off again with points: null', () => {
    const marked = applyGradingEntries(exam, submitted, [
      { questionIndex: 0, points: 1, feedback: 'Half right', criteria: [] },
      { questionIndex: 2, points: 1, feedback: '', criteria: [] },
      { questionIndex: 3, points: 4, feedback: 'Great', criteria: ['thesis', 'sources'] },
    ]);
    const scored = scoreAttempt(exam, ['b', undefined, undefined, undefined], marked, { released: false });
    expect(scored.grades[0]).toEqual({
      answer: 'b',
      points: 1,
      autoScored: false,
      feedback: 'Half right',
      criteria: [],
      manual: true,
    });
    expect(scored.grades[3]).toMatchObject({ points: 4, criteria: ['thesis', 'sources'], manual: true });
    expect(scored.totals).toEqual({ score: 6, maxScore: 10, status: 'graded', pendingCount: 0 });

    const unmarked = applyGradingEntries(exam, scored.grades, [
      { questionIndex: 0, points: null, feedback: 'See the key', criteria: [] },
    ]);
    const rescored = scoreAttempt(exam, ['b'], unmarked, { released: true });
    expect(rescored.grades[0]).toMatchObject({ points: 0, autoScored: true, manual: false, feedback: 'See the key' });
    expect(rescored.totals).toMatchObject({ score: 5, status: 'released' });
  });

  it('refuse points above the question, more than two decimals, and criteria outside the rubric, naming each field', () => {
    const attempt = () =>
      applyGradingEntries(exam, submitted, [
        { questionIndex: 0, points: 2.5, feedback: '', criteria: [] },
        { questionIndex: 2, points: 0.333, feedback: '', criteria: [] },
        { questionIndex: 3, points: 1.5, feedback: '', criteria: ['thesis', 'style'] },
        { questionIndex: 3, points: 1, feedback: '', criteria: [] },
        { questionIndex: 7, points: 1, feedback: '', criteria: [] },
      ]);
    expect(attempt).toThrow(
      expect.objectContaining({
        code: 'VALIDATION',
        issues: [
          { path: 'grading.0.points', message: 'This question is worth at most 2 points' },
          { path: 'grading.1.points', message: 'Points have at most two decimals' },
          { path: 'grading.2.criteria', message: 'Not criteria of this rubric: style' },
          { path: 'grading.3.questionIndex', message: 'Question 4 is graded twice' },
          { path: 'grading.4.questionIndex', message: 'This result has no question 8' },
        ],
      }),
    );
  });

  it('must add up to the rubric when criteria are ticked, and a question without a rubric takes none', () => {
    const wrongSum = () =>
      applyGradingEntries(exam, submitted, [{ questionIndex: 3, points: 3, feedback: '', criteria: ['thesis'] }]);
    expect(wrongSum).toThrow(
      expect.objectContaining({
        issues: [{ path: 'grading.0.points', message: 'The ticked criteria add up to 1.5 points' }],
      }),
    );
    const noRubric = () =>
      applyGradingEntries(exam, submitted, [{ questionIndex: 2, points: 1, feedback: '', criteria: ['thesis'] }]);
    expect(noRubric).toThrow(
      expect.objectContaining({ issues: [{ path: 'grading.0.criteria', message: 'This question has no rubric' }] }),
    );
    // Without criteria a rubric question takes any points up to its maximum.
    expect(
      applyGradingEntries(exam, submitted, [{ questionIndex: 3, points: 3.25, feedback: '', criteria: [] }])[3],
    ).toMatchObject({ points: 3.25, manual: true });
  });

  it('report a change only where points, feedback, criteria or the mark itself differ', () => {
    const entries = [{ questionIndex: 2, points: 1, feedback: 'ok', criteria: [] }];
    const once = scoreAttempt(exam, ['b'], applyGradingEntries(exam, submitted, entries), { released: false });
    expect(gradeChanges(submitted, once.grades)).toEqual([
      { questionIndex: 2, before: { points: null, feedback: '' }, after: { points: 1, feedback: 'ok' } },
    ]);
    const twice = scoreAttempt(exam, ['b'], applyGradingEntries(exam, once.grades, entries), { released: false });
    expect(gradeChanges(once.grades, twice.grades)).toEqual([]);
  });
});

describe('result state after a re-score', () => {
  const now = new Date('2031-01-01T00:00:00Z');
  const earlier = new Date('2030-01-01T00:00:00Z');
  const totals = { score: 1, maxScore: 2, pendingCount: 0 };

  it('stamps gradedAt when the result stops being pending and keeps it after', () => {
    expect(
      nextResultState({ status: 'pending', gradedAt: null, releasedAt: null }, { ...totals, status: 'graded' }, now),
    ).toMatchObject({ gradedAt: now, releasedAt: null });
    expect(
      nextResultState({ status: 'graded', gradedAt: earlier, releasedAt: null }, { ...totals, status: 'graded' }, now),
    ).toMatchObject({ gradedAt: earlier });
  });

  it('withdraws the release of a result that becomes pending again', () => {
    expect(
      nextResultState(
        { status: 'released', gradedAt: earlier, releasedAt: earlier },
        { ...totals, status: 'pending', pendingCount: 1 },
        now,
      ),
    ).toMatchObject({ status: 'pending', gradedAt: null, releasedAt: null });
  });
});

describe('taking the current keys for a regrade', () => {
  it('replaces the scoring fields of questions with the same id and keeps the wording the candidate saw', () => {
    const current = {
      questions: [
        QuestionSchema.parse({ id: 'keyless', type: 'mcq', title: 'Renamed', options: ['y', 'x'], correctAnswer: 'y' }),
        QuestionSchema.parse({ id: 'mcq', type: 'mcq', title: 'Pick', options: ['a', 'b', 'c'], points: 5 }),
      ],
      rubrics: [],
    };
    const next = withCurrentKeys(exam, current);
    expect(next.questions[0]).toMatchObject({ id: 'mcq', points: 5, options: ['a', 'b', 'c'] });
    expect(next.questions[0]).not.toHaveProperty('correctAnswer');
    expect(next.questions[2]).toMatchObject({
      id: 'keyless',
      title: 'Opinion',
      options: ['x', 'y'],
      correctAnswer: 'y',
    });
    expect(next.questions[1]).toEqual(exam.questions[1]);
    expect(next.rubrics).toEqual([]);
  });

  it('never changes a grader mark when re-scoring', () => {
    const marked: StoredGrade[] = gradeSubmission(exam, new Map([[0, 'b']])).grades.map((g, i) =>
      i === 0 ? { ...g, points: 1, manual: true, autoScored: false } : g,
    );
    const next = withCurrentKeys(exam, {
      questions: [
        QuestionSchema.parse({
          id: 'mcq',
          type: 'mcq',
          title: 'Pick',
          options: ['a', 'b'],
          correctAnswer: 'b',
          points: 2,
        }),
      ],
      rubrics: exam.rubrics,
    });
    // The new key would give 2; the grader's 1 stays.
    expect(scoreAttempt(next, ['b'], marked, { released: false }).grades[0]).toMatchObject({ points: 1, manual: true });
  });
});
