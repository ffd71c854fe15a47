import { describe, expect, it } from 'vitest';
import { DEFAULT_MATCHING, encodeChoices, scoreResult, type ScorableQuestion } from './grading.ts';
import { encodeBlanks, encodeMatches, encodeOrder } from './question-kinds.ts';
import { isUnanswered, unansweredToZero, type AnswerableQuestion } from './unanswered.ts';

type Q = ScorableQuestion & AnswerableQuestion;
const q = (overrides: Partial<Q>): Q => ({
  type: 'essay',
  points: 2,
  options: [],
  multipleAnswers: false,
  correctAnswers: [],
  scoring: 'all-or-nothing',
  acceptedAnswers: [],
  matching: DEFAULT_MATCHING,
  ...overrides,
});

const blanks = [
  { kind: 'text' as const, accepted: ['Paris'], options: [], weight: 1, tolerance: 0 },
  { kind: 'text' as const, accepted: ['Rome'], options: [], weight: 1, tolerance: 0 },
];

describe('isUnanswered, per question type', () => {
  it('text answers: blank or whitespace only', () => {
    for (const type of ['short-answer', 'essay', 'numeric', 'calculated'] as const) {
      expect(isUnanswered(q({ type }), undefined)).toBe(true);
      expect(isUnanswered(q({ type }), null)).toBe(true);
      expect(isUnanswered(q({ type }), ' \n\t ')).toBe(true);
      expect(isUnanswered(q({ type }), '0')).toBe(false);
    }
  });

  it('a file upload: no file stored', () => {
    expect(isUnanswered(q({ type: 'file-upload' }), undefined)).toBe(true);
    expect(isUnanswered(q({ type: 'file-upload' }), '')).toBe(true);
    expect(isUnanswered(q({ type: 'file-upload' }), 'File: notebook.ipynb')).toBe(false);
  });

  it('an MCQ: no option chosen (an empty set of ticks for a multiple-answer one)', () => {
    const single = q({ type: 'mcq', options: ['A', 'B'] });
    expect(isUnanswered(single, undefined)).toBe(true);
    expect(isUnanswered(single, 'B')).toBe(false);
    const multiple = q({ type: 'mcq', options: ['A', 'B'], multipleAnswers: true });
    expect(isUnanswered(multiple, encodeChoices([]))).toBe(true);
    expect(isUnanswered(multiple, encodeChoices(['A']))).toBe(false);
  });

  it('true/false: neither chosen', () => {
    expect(isUnanswered(q({ type: 'true-false' }), '')).toBe(true);
    expect(isUnanswered(q({ type: 'true-false' }), 'maybe')).toBe(true);
    expect(isUnanswered(q({ type: 'true-false' }), 'false')).toBe(false);
  });

  it('ordering: no order given', () => {
    expect(isUnanswered(q({ type: 'ordering' }), encodeOrder([]))).toBe(true);
    expect(isUnanswered(q({ type: 'ordering' }), encodeOrder(['b', 'a']))).toBe(false);
  });

  it('matching: every prompt left without an answer', () => {
    const matching = q({
      type: 'matching',
      pairs: [
        { prompt: 'France', answer: 'Paris' },
        { prompt: 'Italy', answer: 'Rome' },
      ],
    });
    expect(isUnanswered(matching, encodeMatches(['', ' ']))).toBe(true);
    expect(isUnanswered(matching, encodeMatches(['', 'Rome']))).toBe(false);
  });

  it('fill in the blanks: every gap empty', () => {
    const gaps = q({ type: 'fill-blanks', blanks });
    expect(isUnanswered(gaps, encodeBlanks(['', '  ']))).toBe(true);
    expect(isUnanswered(gaps, encodeBlanks(['', 'Rome']))).toBe(false);
  });

  it('coding: empty, or the starter code untouched (line endings and trailing spaces aside)', () => {
    const starterCode = 'def solve(x):\n    pass\n';
    const coding = q({ type: 'coding', starterCode });
    expect(isUnanswered(coding, undefined)).toBe(true);
    expect(isUnanswered(coding, starterCode)).toBe(true);
    expect(isUnanswered(coding, 'def solve(x):  \r\n    pass')).toBe(true);
    expect(isUnanswered(coding, 'def solve(x):\n    return x\n')).toBe(false);
    expect(isUnanswered(q({ type: 'coding' }), 'print(1)')).toBe(false);
  });

  it('coding answered in the workspace: never judged from the stored answer', () => {
    expect(isUnanswered(q({ type: 'coding', workspaceFile: 'main.py' }), undefined)).toBe(false);
    expect(isUnanswered(q({ type: 'coding', repository: { files: [] } }), '')).toBe(false);
  });
});

describe('unanswered questions in a result', () => {
  const questions = [q({ type: 'essay' }), q({ type: 'file-upload' }), q({ type: 'essay' })];
  const answers = ['An essay', undefined, '   '];

  it("'zero' scores them 0 with the marker, leaving answered questions to the grader", () => {
    const unanswered = unansweredToZero(questions, answers, 'zero');
    expect([...unanswered]).toEqual([1, 2]);
    const result = scoreResult(questions, answers, new Map(), { released: false, unanswered });
    expect(result.questions.map((s) => [s.points, s.unanswered])).toEqual([
      [null, false],
      [0, true],
      [0, true],
    ]);
    expect(result.status).toBe('pending');
  });

  it('a result with only unanswered questions left is graded, not pending', () => {
    const marks = new Map([[0, { points: 2, feedback: '', criteria: [] }]]);
    const unanswered = unansweredToZero(questions, answers, 'zero');
    const result = scoreResult(questions, answers, marks, { released: false, unanswered });
    expect(result.status).toBe('graded');
    expect(result.score).toBe(2);
    expect(result.maxScore).toBe(6);
  });

  it("'grader' leaves them pending; a policy missing (older exams) reads as 'zero'", () => {
    expect(unansweredToZero(questions, answers, 'grader').size).toBe(0);
    expect(unansweredToZero(questions, answers, undefined).size).toBe(2);
  });

  it("a grader's mark wins over the automatic 0", () => {
    const marks = new Map([[1, { points: 1, feedback: 'late upload accepted', criteria: [] }]]);
    const result = scoreResult(questions, answers, marks, { released: false, unanswered: new Set([1]) });
    expect(result.questions[1]).toMatchObject({ points: 1, unanswered: false, autoScored: false });
  });
});
