import { describe, expect, it } from 'vitest';
import {
  autoPoints,
  decodeChoices,
  DEFAULT_MATCHING,
  encodeChoices,
  formatDuration,
  formatPercentage,
  formatPoints,
  formatScore,
  hasAnswerKey,
  matchesShortAnswer,
  normalizeText,
  parseNumber,
  rubricPoints,
  scoreResult,
  sumPoints,
  type ScorableQuestion,
} from './grading.ts';

function question(overrides: Partial<ScorableQuestion>): ScorableQuestion {
  return {
    type: 'mcq',
    points: 1,
    options: ['A', 'B', 'C', 'D'],
    correctAnswer: undefined,
    multipleAnswers: false,
    correctAnswers: [],
    scoring: 'all-or-nothing',
    acceptedAnswers: [],
    matching: DEFAULT_MATCHING,
    ...overrides,
  };
}

describe('answer keys', () => {
  it('auto-scores only questions that carry a key', () => {
    expect(hasAnswerKey(question({ correctAnswer: 'A' }))).toBe(true);
    expect(hasAnswerKey(question({}))).toBe(false);
    expect(hasAnswerKey(question({ correctAnswer: '' }))).toBe(false);
    expect(hasAnswerKey(question({ multipleAnswers: true, correctAnswers: ['A'] }))).toBe(true);
    expect(hasAnswerKey(question({ multipleAnswers: true, correctAnswer: 'A' }))).toBe(false);
    expect(hasAnswerKey(question({ type: 'short-answer', acceptedAnswers: ['  '] }))).toBe(false);
    expect(hasAnswerKey(question({ type: 'short-answer', acceptedAnswers: ['skin'] }))).toBe(true);
    expect(hasAnswerKey(question({ type: 'file-upload', correctAnswer: 'x' }))).toBe(false);
    expect(hasAnswerKey(question({ type: 'coding' }))).toBe(false);
  });

  it('leaves a keyless question to the grader instead of marking it wrong', () => {
    expect(autoPoints(question({}), 'A')).toBeNull();
    expect(autoPoints(question({ type: 'short-answer' }), 'anything')).toBeNull();
  });
});

describe('single-answer MCQ', () => {
  const q = question({ correctAnswer: 'B', points: 2.5 });
  it('gives the points for the correct option and 0 otherwise, 0 when unanswered', () => {
    expect(autoPoints(q, 'B')).toBe(2.5);
    expect(autoPoints(q, 'C')).toBe(0);
    expect(autoPoints(q, undefined)).toBe(0);
    expect(autoPoints(q, '')).toBe(0);
  });
});

describe('multiple-answer MCQ', () => {
  const key = { multipleAnswers: true, correctAnswers: ['A', 'C'], points: 2 };
  it('all-or-nothing gives the points only for exactly the right set', () => {
    const q = question({ ...key, scoring: 'all-or-nothing' });
    expect(autoPoints(q, encodeChoices(['C', 'A']))).toBe(2);
    expect(autoPoints(q, encodeChoices(['A']))).toBe(0);
    expect(autoPoints(q, encodeChoices(['A', 'C', 'D']))).toBe(0);
    expect(autoPoints(q, undefined)).toBe(0);
  });

  it('partial adds per right tick, takes away per wrong tick, and never goes below 0', () => {
    const q = question({ ...key, scoring: 'partial' });
    expect(autoPoints(q, encodeChoices(['A', 'C']))).toBe(2);
    expect(autoPoints(q, encodeChoices(['A']))).toBe(1);
    expect(autoPoints(q, encodeChoices(['A', 'B']))).toBe(0);
    expect(autoPoints(q, encodeChoices(['A', 'C', 'D']))).toBe(1);
    expect(autoPoints(q, encodeChoices(['B', 'D']))).toBe(0);
    expect(autoPoints(q, encodeChoices([]))).toBe(0);
  });

  it('reads a choice list, ignores duplicates and reads a plain single choice', () => {
    expect(decodeChoices('["A","A","C"]')).toEqual(['A', 'C']);
    expect(decodeChoices('A')).toEqual(['A']);
    expect(decodeChoices(undefined)).toEqual([]);
    const q = question({ ...key, scoring: 'partial' });
    expect(autoPoints(q, '["A","A"]')).toBe(1);
  });
});

describe('short answers', () => {
  it('trims, collapses inner whitespace and ignores case by default, but keeps words apart', () => {
    expect(normalizeText('  New   York ')).toBe('new york');
    expect(matchesShortAnswer('new  york', ['New York'], DEFAULT_MATCHING)).toBe(true);
    expect(matchesShortAnswer('newyork', ['New York'], DEFAULT_MATCHING)).toBe(false);
    expect(matchesShortAnswer('', ['New York'], DEFAULT_MATCHING)).toBe(false);
  });

  it('compares case when the question asks for it', () => {
    const matching = { caseSensitive: true, numeric: null };
    expect(matchesShortAnswer('NaCl', ['NaCl'], matching)).toBe(true);
    expect(matchesShortAnswer('nacl', ['NaCl'], matching)).toBe(false);
  });

  it('accepts a number within an absolute tolerance', () => {
    const matching = { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'absolute' as const } };
    expect(matchesShortAnswer('3.14', ['3.14159'], matching)).toBe(true);
    expect(matchesShortAnswer('3.15', ['3.14159'], matching)).toBe(true);
    expect(matchesShortAnswer('3.16', ['3.14159'], matching)).toBe(false);
    expect(matchesShortAnswer('pi', ['3.14159'], matching)).toBe(false);
    expect(matchesShortAnswer(' 0.3 ', ['0.3'], { ...matching, numeric: { tolerance: 0, mode: 'absolute' } })).toBe(
      true,
    );
  });

  it('accepts a number within a relative tolerance of the expected value', () => {
    const matching = { caseSensitive: false, numeric: { tolerance: 0.05, mode: 'relative' as const } };
    expect(matchesShortAnswer('1040', ['1000'], matching)).toBe(true);
    expect(matchesShortAnswer('1,049', ['1000'], matching)).toBe(true);
    expect(matchesShortAnswer('1060', ['1000'], matching)).toBe(false);
    expect(matchesShortAnswer('-1000', ['1000'], matching)).toBe(false);
  });

  it('parses plain decimals and refuses anything else', () => {
    expect(parseNumber('-2.5e3')).toBe(-2500);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('1,000')).toBe(1000);
    expect(parseNumber('12abc')).toBeUndefined();
    expect(parseNumber('')).toBeUndefined();
    expect(parseNumber('Infinity')).toBeUndefined();
  });
});

describe('a whole result', () => {
  const questions = [
    question({ correctAnswer: 'A', points: 2 }),
    question({ multipleAnswers: true, correctAnswers: ['A', 'B'], scoring: 'partial', points: 3 }),
    question({ type: 'short-answer', acceptedAnswers: ['skin'], points: 1 }),
    question({ type: 'file-upload', points: 4 }),
  ];
  const answers = ['A', encodeChoices(['A']), 'bone', 'report.pdf'];

  it('is pending while a question waits for a grader, with its points counted as possible', () => {
    const result = scoreResult(questions, answers, new Map(), { released: false });
    expect(result.status).toBe('pending');
    expect(result.score).toBe(3.5);
    expect(result.maxScore).toBe(10);
    expect(result.questions[3]).toMatchObject({ points: null, autoScored: false, maxPoints: 4 });
    expect(formatScore(result)).toBe('3.5 / 10 points · awaiting grading');
  });

  it('words the points in the singular when the exam is worth one point', () => {
    expect(formatScore({ score: 0, maxScore: 1, percentage: 0, status: 'graded' })).toBe('0 / 1 point · 0%');
    expect(formatScore({ score: 1.5, maxScore: 2, percentage: 75, status: 'graded' })).toBe('1.5 / 2 points · 75%');
  });

  it('is graded once every question has points; a grader mark replaces the key', () => {
    const marks = new Map([
      [3, { points: 2.5, feedback: 'Good method', criteria: [] }],
      [2, { points: 0.5, feedback: 'Close enough', criteria: [] }],
    ]);
    const result = scoreResult(questions, answers, marks, { released: false });
    expect(result.status).toBe('graded');
    expect(result.score).toBe(6.5);
    expect(result.percentage).toBeCloseTo(65, 10);
    expect(result.questions[2]).toMatchObject({ points: 0.5, autoScored: false, feedback: 'Close enough' });
    expect(scoreResult(questions, answers, marks, { released: true }).status).toBe('released');
  });

  it('gives 0% to an exam worth no points instead of dividing by zero', () => {
    expect(scoreResult([], [], new Map(), { released: false })).toMatchObject({ score: 0, maxScore: 0, percentage: 0 });
  });
});

describe('rubrics, sums and formats', () => {
  it('sums the ticked criteria of a rubric', () => {
    const rubric = {
      id: 'r1',
      title: 'Report',
      criteria: [
        { id: 'c1', description: 'Method', points: 1.5 },
        { id: 'c2', description: 'Result', points: 2 },
      ],
    };
    expect(rubricPoints(rubric, ['c2'])).toBe(2);
    expect(rubricPoints(rubric, ['c1', 'c2', 'unknown'])).toBe(3.5);
    expect(rubricPoints(rubric, [])).toBe(0);
  });

  it('keeps points to hundredths so sums compare exactly', () => {
    expect(sumPoints([0.1, 0.2])).toBe(0.3);
    expect(sumPoints([1 / 3, 1 / 3, 1 / 3])).toBe(1);
  });

  it('rounds for display only', () => {
    expect(formatPoints(2)).toBe('2');
    expect(formatPoints(2.5)).toBe('2.5');
    expect(formatPoints(2 / 3)).toBe('0.67');
    expect(formatPercentage(200 / 3)).toBe('66.7%');
    expect(formatPercentage(100)).toBe('100%');
  });

  it('formats time spent one way everywhere', () => {
    expect(formatDuration(22)).toBe('22s');
    expect(formatDuration(245)).toBe('4m 05s');
    expect(formatDuration(3720)).toBe('1h 02m');
    expect(formatDuration(0)).toBe('0s');
  });
});
