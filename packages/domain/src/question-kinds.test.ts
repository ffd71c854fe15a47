import { describe, expect, it } from 'vitest';
import { answerKeyText, answerText, isAnswered } from './answer-text.ts';
import { answerParts, autoPoints, hasAnswerKey, matchesQuantity, parseQuantity, scoreResult } from './grading.ts';
import {
  countWords,
  encodeBlanks,
  encodeMatches,
  encodeOrder,
  questionKindIssues,
  splitGapText,
} from './question-kinds.ts';
import { QuestionSchema, toPublicQuestion, type Question } from './question.ts';
import { NO_ANSWER } from './result.ts';

const build = (fields: Record<string, unknown>): Question => QuestionSchema.parse({ id: 'q', title: 'Q', ...fields });

const essay = build({ type: 'essay', points: 5, essay: { minWords: 10, maxWords: 200 } });
const trueFalse = build({ type: 'true-false', correctAnswer: 'false', points: 1 });
const ordering = (scoring: 'partial' | 'all-or-nothing') =>
  build({ type: 'ordering', items: ['Mercury', 'Venus', 'Earth', 'Mars'], points: 3, scoring });
const matching = (scoring: 'partial' | 'all-or-nothing') =>
  build({
    type: 'matching',
    points: 4,
    scoring,
    pairs: [
      { prompt: 'France', answer: 'Paris' },
      { prompt: 'Spain', answer: 'Madrid' },
      { prompt: 'Italy', answer: 'Rome' },
      { prompt: 'Peru', answer: 'Lima' },
    ],
    distractors: ['Lyon'],
  });
const blanks = (scoring: 'partial' | 'all-or-nothing') =>
  build({
    type: 'fill-blanks',
    points: 4,
    scoring,
    gapText: 'Water boils at [[1]] °C at sea level; its formula is [[2]]; it is a [[3]].',
    blanks: [
      { kind: 'numeric', accepted: ['100'], tolerance: 0.5, weight: 2 },
      { kind: 'text', accepted: ['H2O', 'H₂O'] },
      { kind: 'choice', options: ['solid', 'liquid', 'gas'], accepted: ['liquid'] },
    ],
  });
const numeric = build({
  type: 'numeric',
  points: 2,
  acceptedAnswers: ['0.125'],
  units: {
    units: [
      { symbol: 'm', multiplier: 1 },
      { symbol: 'cm', multiplier: 100 },
      { symbol: 'mm', multiplier: 1000 },
    ],
  },
  matching: { caseSensitive: false, numeric: { tolerance: 0.001, mode: 'absolute' } },
});

describe('autoPoints for each further type', () => {
  it('leaves an essay to a grader', () => {
    expect(hasAnswerKey(essay)).toBe(false);
    expect(autoPoints(essay, 'A long and thoughtful answer.')).toBeNull();
    expect(scoreResult([essay], ['An answer'], new Map(), { released: false }).status).toBe('pending');
  });

  it('scores true/false against its key only', () => {
    expect(autoPoints(trueFalse, 'false')).toBe(1);
    expect(autoPoints(trueFalse, 'true')).toBe(0);
    expect(autoPoints(trueFalse, 'False')).toBe(0);
    expect(autoPoints(trueFalse, undefined)).toBe(0);
  });

  it('gives an ordering partial credit per neighbouring pair kept in order', () => {
    const q = ordering('partial');
    expect(autoPoints(q, encodeOrder(['Mercury', 'Venus', 'Earth', 'Mars']))).toBe(3);
    // Mercury→Venus and Earth→Mars kept; Venus→Earth lost: 2 of 3 pairs.
    expect(autoPoints(q, encodeOrder(['Earth', 'Mars', 'Mercury', 'Venus']))).toBe(2);
    expect(answerParts(q, encodeOrder(['Earth', 'Mars', 'Mercury', 'Venus']))).toEqual([true, false, true]);
    expect(autoPoints(q, encodeOrder(['Mars', 'Earth', 'Venus', 'Mercury']))).toBe(0);
    // Not a rearrangement of exactly the items: nothing.
    expect(autoPoints(q, encodeOrder(['Mercury', 'Venus', 'Earth']))).toBe(0);
    expect(autoPoints(q, encodeOrder(['Mercury', 'Venus', 'Earth', 'Pluto']))).toBe(0);
    expect(autoPoints(q, 'not json')).toBe(0);
  });

  it('gives an all-or-nothing ordering its points only in the right order', () => {
    const q = ordering('all-or-nothing');
    expect(autoPoints(q, encodeOrder(['Mercury', 'Venus', 'Earth', 'Mars']))).toBe(3);
    expect(autoPoints(q, encodeOrder(['Mercury', 'Venus', 'Mars', 'Earth']))).toBe(0);
  });

  it('gives a matching partial credit per right pair', () => {
    const q = matching('partial');
    expect(autoPoints(q, encodeMatches(['Paris', 'Madrid', 'Rome', 'Lima']))).toBe(4);
    expect(autoPoints(q, encodeMatches(['Paris', 'Lyon', 'Rome', '']))).toBe(2);
    expect(answerParts(q, encodeMatches(['Paris', 'Lyon', 'Rome', '']))).toEqual([true, false, true, false]);
    expect(autoPoints(q, encodeMatches(['Madrid', 'Paris']))).toBe(0);
    expect(autoPoints(matching('all-or-nothing'), encodeMatches(['Paris', 'Madrid', 'Rome', 'Rome']))).toBe(0);
    expect(autoPoints(matching('all-or-nothing'), encodeMatches(['Paris', 'Madrid', 'Rome', 'Lima']))).toBe(4);
  });

  it('gives fill-in-the-blanks credit per gap by its weight, each gap by its own rule', () => {
    const q = blanks('partial');
    expect(autoPoints(q, encodeBlanks(['100', 'h2o', 'liquid']))).toBe(4);
    // Numeric within tolerance, text case-insensitive and trimmed, a drop-down exactly.
    expect(autoPoints(q, encodeBlanks(['100.4', '  H₂O ', 'liquid']))).toBe(4);
    // Weights 2, 1, 1: the numeric gap alone is half the points.
    expect(autoPoints(q, encodeBlanks(['99.6', 'water', 'gas']))).toBe(2);
    expect(autoPoints(q, encodeBlanks(['101', 'H2O', 'liquid']))).toBe(2);
    expect(answerParts(q, encodeBlanks(['101', 'H2O', 'Liquid']))).toEqual([false, true, false]);
    expect(autoPoints(q, encodeBlanks([]))).toBe(0);
    expect(autoPoints(blanks('all-or-nothing'), encodeBlanks(['100', 'H2O', 'gas']))).toBe(0);
    expect(autoPoints(blanks('all-or-nothing'), encodeBlanks(['100', 'H2O', 'liquid']))).toBe(4);
  });

  it('scores a numeric answer in any accepted unit within the tolerance', () => {
    expect(autoPoints(numeric, '0.125 m')).toBe(2);
    expect(autoPoints(numeric, '12.5 cm')).toBe(2);
    expect(autoPoints(numeric, '125mm')).toBe(2);
    expect(autoPoints(numeric, '0.1255')).toBe(2);
    expect(autoPoints(numeric, '12.5 m')).toBe(0);
    expect(autoPoints(numeric, '12.5 km')).toBe(0);
  });

  it('adds partial credit of several types into one result', () => {
    const result = scoreResult(
      [ordering('partial'), matching('partial'), blanks('partial'), trueFalse, essay],
      [
        encodeOrder(['Earth', 'Mars', 'Mercury', 'Venus']),
        encodeMatches(['Paris', 'Lyon', 'Rome', '']),
        encodeBlanks(['100', 'x', 'y']),
        'false',
        'Essay text',
      ],
      new Map([[4, { points: 3.5, feedback: 'Good', criteria: [] }]]),
      { released: false },
    );
    expect(result.questions.map((q) => q.points)).toEqual([2, 2, 2, 1, 3.5]);
    expect(result).toMatchObject({ score: 10.5, maxScore: 17, status: 'graded' });
  });
});

describe('parseQuantity and matchesQuantity', () => {
  const units = numeric.units;

  it('reads a number in the unit of multiplier 1, with or without a space, the longest symbol first', () => {
    expect(parseQuantity('12.5 cm', units)).toBeCloseTo(0.125, 12);
    expect(parseQuantity('12.5cm', units)).toBeCloseTo(0.125, 12);
    expect(parseQuantity('125 mm', units)).toBeCloseTo(0.125, 12);
    expect(parseQuantity('-3e2 m', units)).toBe(-300);
    expect(parseQuantity('0.125', units)).toBe(0.125);
    expect(parseQuantity('1,250 mm', units)).toBeCloseTo(1.25, 12);
  });

  it('refuses an unknown unit, a bare number where a unit is required, and anything else', () => {
    expect(parseQuantity('12 km', units)).toBeUndefined();
    expect(parseQuantity('12 M', units)).toBeUndefined();
    expect(parseQuantity('0.125', { ...units, required: true })).toBeUndefined();
    expect(parseQuantity('0.125 m', { ...units, required: true })).toBe(0.125);
    expect(parseQuantity('', units)).toBeUndefined();
    expect(parseQuantity('m', units)).toBeUndefined();
    expect(parseQuantity('twelve', undefined)).toBeUndefined();
    expect(parseQuantity('12', undefined)).toBe(12);
  });

  it('matches within an absolute or relative tolerance of any accepted value', () => {
    expect(matchesQuantity('12.6 cm', ['0.125'], units, { tolerance: 0.001, mode: 'absolute' })).toBe(true);
    expect(matchesQuantity('12.7 cm', ['0.125'], units, { tolerance: 0.001, mode: 'absolute' })).toBe(false);
    expect(matchesQuantity('105', ['100'], undefined, { tolerance: 0.05, mode: 'relative' })).toBe(true);
    expect(matchesQuantity('106', ['100'], undefined, { tolerance: 0.05, mode: 'relative' })).toBe(false);
    expect(matchesQuantity('0.3', ['0.1', '0.30000000000000004'], undefined, null)).toBe(true);
    expect(matchesQuantity('7', ['six', '7'], undefined, null)).toBe(true);
  });
});

describe('answer-text', () => {
  it('reads each structured answer in words, and a blank one as no answer', () => {
    expect(answerText(trueFalse, 'true')).toBe('True');
    expect(answerText(ordering('partial'), encodeOrder(['Venus', 'Mercury']))).toBe('1. Venus; 2. Mercury');
    expect(answerText(matching('partial'), encodeMatches(['Paris', '', 'Rome']))).toBe(
      'France → Paris; Spain → —; Italy → Rome; Peru → —',
    );
    expect(answerText(blanks('partial'), encodeBlanks(['100', '', 'gas']))).toBe(
      'Water boils at [100] °C at sea level; its formula is […]; it is a [gas].',
    );
    expect(answerText(essay, 'My essay')).toBe('My essay');
    expect(answerText(numeric, '12.5 cm')).toBe('12.5 cm');
    expect(answerText(matching('partial'), encodeMatches(['', '']))).toBe(NO_ANSWER);
    expect(answerText(ordering('partial'), '[]')).toBe(NO_ANSWER);
    expect(answerText(blanks('partial'), '   ')).toBe(NO_ANSWER);
  });

  it('reads each key in words, numeric keys with their unit and tolerance', () => {
    expect(answerKeyText(trueFalse)).toBe('False');
    expect(answerKeyText(ordering('partial'))).toBe('1. Mercury; 2. Venus; 3. Earth; 4. Mars');
    expect(answerKeyText(matching('partial'))).toBe('France → Paris; Spain → Madrid; Italy → Rome; Peru → Lima');
    expect(answerKeyText(blanks('partial'))).toBe(
      'Water boils at [100 ± 0.5] °C at sea level; its formula is [H2O / H₂O]; it is a [liquid].',
    );
    expect(answerKeyText(numeric)).toBe('0.125 ± 0.001 m');
    expect(answerKeyText(essay)).toBeNull();
  });

  it('reads a relative tolerance as a percentage, and no tolerance as the bare key', () => {
    const relative = build({
      type: 'numeric',
      acceptedAnswers: ['3.14'],
      matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'relative' } },
    });
    expect(answerKeyText(relative)).toBe('3.14 ± 1%');
    // A calculated question's key (its instance's value) reads the same way.
    const absolute = build({
      type: 'numeric',
      acceptedAnswers: ['3.14'],
      matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'absolute' } },
    });
    expect(answerKeyText({ ...absolute, type: 'calculated' })).toBe('3.14 ± 0.01');
    const exact = build({
      type: 'numeric',
      acceptedAnswers: ['42'],
      matching: { caseSensitive: false, numeric: null },
    });
    expect(answerKeyText(exact)).toBe('42');
  });

  it('reads a short answer kept before units existed (an old snapshot’s question)', () => {
    const { units: _none, ...old } = build({ type: 'short-answer', acceptedAnswers: ['Paris'] });
    expect(answerKeyText(old)).toBe('Paris');
  });

  it('counts a structured answer as given once any part is filled', () => {
    expect(isAnswered(matching('partial'), encodeMatches(['', 'Madrid']))).toBe(true);
    expect(isAnswered(matching('partial'), encodeMatches(['', '']))).toBe(false);
    expect(isAnswered(blanks('partial'), encodeBlanks(['', ' ', '']))).toBe(false);
    expect(isAnswered(blanks('partial'), encodeBlanks(['', '', 'gas']))).toBe(true);
    expect(isAnswered(ordering('partial'), encodeOrder(['Venus']))).toBe(true);
    expect(isAnswered(trueFalse, '')).toBe(false);
    expect(isAnswered(essay, 'x')).toBe(true);
  });
});

describe('the further types’ fields', () => {
  it('cuts a gap text at its gaps', () => {
    expect(splitGapText('A [[1]] b [[2]]')).toEqual([{ text: 'A ' }, { gap: 0 }, { text: ' b ' }, { gap: 1 }]);
  });

  it('counts words as the essay counter does', () => {
    expect(countWords("It's a well-known fact — 42 times.")).toBe(6);
    expect(countWords('   ')).toBe(0);
  });

  it('names what a creator must fix, per type', () => {
    const issues = (fields: Record<string, unknown>) =>
      QuestionSchema.safeParse({ id: 'q', title: 'Q', ...fields }).error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(issues({ type: 'true-false' })).toContain('correctAnswer');
    expect(issues({ type: 'ordering', items: ['one'] })).toContain('items');
    expect(issues({ type: 'matching', pairs: [{ prompt: 'a', answer: 'b' }] })).toContain('pairs');
    expect(issues({ type: 'fill-blanks', gapText: 'no gaps', blanks: [] })).toContain('gapText');
    expect(issues({ type: 'numeric', acceptedAnswers: ['ten'] })).toContain('acceptedAnswers.0');
    expect(
      issues({
        type: 'calculated',
        calculated: { formula: 'a * b', variables: [{ name: 'a', min: 1, max: 2 }] },
      }),
    ).toContain('calculated.formula');
    expect(questionKindIssues({ ...essay, essay: { minWords: 10, maxWords: 5, formatted: false } })).toEqual([
      { path: ['essay', 'maxWords'], message: 'The word limit is below the minimum' },
    ]);
  });

  it('shows a candidate the items shuffled and never a key', () => {
    const q = ordering('partial');
    const view = toPublicQuestion(q);
    expect([...view.items!].sort()).toEqual([...q.items].sort());
    expect(view.items).not.toEqual(q.items);
    const match = toPublicQuestion(matching('partial'));
    expect(match.prompts).toEqual(['France', 'Spain', 'Italy', 'Peru']);
    expect([...match.choices!].sort()).toEqual(['Lima', 'Lyon', 'Madrid', 'Paris', 'Rome']);
    const fill = toPublicQuestion(blanks('partial'));
    expect(JSON.stringify(fill)).not.toContain('H2O');
    expect(fill.gaps).toEqual([
      { kind: 'numeric', options: [] },
      { kind: 'text', options: [] },
      { kind: 'choice', options: ['solid', 'liquid', 'gas'] },
    ]);
    expect(JSON.stringify(toPublicQuestion(numeric))).not.toContain('0.125');
    expect(toPublicQuestion(trueFalse)).not.toHaveProperty('correctAnswer');
  });
});
