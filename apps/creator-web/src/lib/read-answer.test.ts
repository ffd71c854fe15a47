import { answerText } from '@exam/domain/answer-text';
import { QuestionSchema, type Question } from '@exam/domain/question';
import { decodeBlanks, decodeMatches, encodeBlanks, encodeMatches, encodeOrder } from '@exam/domain/question-kinds';
import { NO_ANSWER } from '@exam/domain/result';
import { describe, expect, it } from 'vitest';
import { KINDS_ANSWERS, kindAnswer, makeKindsQuestions } from '../testing/kinds-factories.ts';
import { readAnswer, readBlanks, readMatches, readOrder, toleranceText } from './read-answer.ts';

const q = (fields: Record<string, unknown>): Question => QuestionSchema.parse({ id: 'q', title: 'Q', ...fields });

describe('reading answers back from their words (a server without answerValue)', () => {
  it('gives back an ordering, even when an item holds the separator', () => {
    const items = ['Boil; 2. then stir', 'Pour', 'Serve'];
    const question = q({ type: 'ordering', items });
    for (const order of [['Pour', 'Boil; 2. then stir', 'Serve'], items, ['Serve']]) {
      expect(readOrder(answerText(question, encodeOrder(order)), items)).toEqual(order);
    }
    expect(readOrder(NO_ANSWER, items)).toEqual([]);
    expect(readOrder('Pour, Serve', items)).toBeUndefined();
  });

  it('gives back each prompt’s choice, empty ones included, with arrows and semicolons in the texts', () => {
    const pairs = [
      { prompt: 'A → B', answer: 'x; y' },
      { prompt: 'C', answer: 'z' },
      { prompt: 'D', answer: '—x' },
    ];
    const question = q({ type: 'matching', pairs });
    const prompts = pairs.map((p) => p.prompt);
    for (const chosen of [
      ['x; y', '', 'z'],
      ['', '', '—x'],
      ['z', 'x; y', ''],
    ]) {
      const text = answerText(question, encodeMatches(chosen));
      const expected = decodeMatches(encodeMatches(chosen), 3);
      expect(text === NO_ANSWER ? prompts.map(() => '') : readMatches(text, prompts)).toEqual(expected);
    }
    expect(readMatches('France → Paris', ['Spain'])).toBeUndefined();
  });

  it('gives back every gap, adjacent and empty ones and brackets in values included', () => {
    const gapText = '[[1]][[2]] is the [[3]] of [x] and [[4]]';
    const blanks = [{ accepted: ['a'] }, { accepted: ['b'] }, { accepted: ['c'] }, { accepted: ['d'] }];
    const question = q({ type: 'fill-blanks', gapText, blanks });
    for (const values of [
      ['New', ' York', 'city', 'USA'],
      ['', 'x', '', 'y'],
      ['a]b', '[c', 'd', ''],
    ]) {
      const text = answerText(question, encodeBlanks(values));
      expect(readBlanks(text, gapText, 4)).toEqual(decodeBlanks(encodeBlanks(values), 4));
    }
    expect(readBlanks('something else', gapText, 4)).toBeUndefined();
  });

  it('writes a tolerance as the grader reads it', () => {
    expect(toleranceText({ tolerance: 0.01, mode: 'relative' }, 'm')).toBe('± 1%');
    expect(toleranceText({ tolerance: 0.005, mode: 'absolute' }, 'm')).toBe('± 0.005 m');
    expect(toleranceText({ tolerance: 0.5, mode: 'absolute' }, undefined)).toBe('± 0.5');
    expect(toleranceText({ tolerance: 0, mode: 'absolute' }, 'm')).toBe('');
    expect(toleranceText(null, 'm')).toBe('');
  });
});

describe('an answer decoded as saved', () => {
  /** The answer as results-service sends it: its words and its saved form, scored by the domain. */
  const sent = (question: Question, raw: string) => ({
    ...kindAnswer(question, 0, raw),
    parts: undefined,
  });

  it('tells apart orderings whose words are the same, an item holding "; 2. "', () => {
    const items = ['X', 'Y', 'X; 2. Y'];
    const question = q({ type: 'ordering', items });
    const split = sent(question, encodeOrder(['X', 'Y', 'X; 2. Y']));
    const joined = sent(question, encodeOrder(['X; 2. Y', 'X', 'Y']));
    expect(split.answer).toBe('1. X; 2. Y; 3. X; 2. Y');
    expect(readAnswer(question, split)).toMatchObject({ given: ['X', 'Y', 'X; 2. Y'] });
    expect(readAnswer(question, joined)).toMatchObject({ given: ['X; 2. Y', 'X', 'Y'] });
    // Two answers that read alike: only the saved form says which one the candidate gave.
    const one = sent(question, encodeOrder(['X', 'Y']));
    const other = sent(question, encodeOrder(['X; 2. Y']));
    expect(one.answer).toBe(other.answer);
    expect(readAnswer(question, one)).toMatchObject({ given: ['X', 'Y'] });
    expect(readAnswer(question, other)).toMatchObject({ given: ['X; 2. Y'] });
  });

  it('gives each prompt its choice when choices hold "→" and "; " and another prompt’s words', () => {
    const pairs = [
      { prompt: 'A', answer: 'x; B → y' },
      { prompt: 'B', answer: 'z' },
      { prompt: 'C → D', answer: '→' },
    ];
    const question = q({ type: 'matching', pairs, scoring: 'partial' });
    const shown = sent(question, encodeMatches(['x; B → y', '', '→']));
    expect(shown.answer).toBe('A → x; B → y; B → —; C → D → →');
    // The words read back go wrong here: A's choice stops at the first "; B → ".
    expect(readMatches(shown.answer, ['A', 'B', 'C → D'])).not.toEqual(['x; B → y', '', '→']);
    const view = readAnswer(question, shown);
    expect(view?.kind === 'matching' && view.rows).toEqual([
      { prompt: 'A', chosen: 'x; B → y', right: 'x; B → y', isRight: true },
      { prompt: 'B', chosen: '', right: 'z', isRight: false },
      { prompt: 'C → D', chosen: '→', right: '→', isRight: true },
    ]);
  });

  it('gives each gap its value when a value holds "]" and the text after its gap', () => {
    const question = q({
      type: 'fill-blanks',
      gapText: 'Index [[1]] then [[2]].',
      blanks: [{ accepted: ['a] then [b'] }, { accepted: ['c'] }],
      scoring: 'partial',
    });
    const shown = sent(question, encodeBlanks(['a] then [b', 'c']));
    expect(shown.answer).toBe('Index [a] then [b] then [c].');
    expect(readBlanks(shown.answer, question.gapText, 2)).toEqual(['a', 'b] then [c']);
    const view = readAnswer(question, shown);
    expect(view).toMatchObject({ kind: 'fill-blanks', right: 2, total: 2 });
    expect(view?.kind === 'fill-blanks' && view.pieces.filter((p) => 'gap' in p)).toEqual([
      { gap: 0, value: 'a] then [b', accepted: ['a] then [b'], isRight: true },
      { gap: 1, value: 'c', accepted: ['c'], isRight: true },
    ]);
  });

  it('shows a question left unanswered as empty, and an essay that reads "No answer provided" as written', () => {
    const matching = q({ type: 'matching', pairs: ['A', 'B'].map((p) => ({ prompt: p, answer: p.toLowerCase() })) });
    for (const raw of ['', encodeMatches(['', ''])])
      expect(readAnswer(matching, sent(matching, raw))).toMatchObject({
        rows: [
          { prompt: 'A', chosen: '', isRight: false },
          { prompt: 'B', chosen: '', isRight: false },
        ],
      });
    const essay = q({ type: 'essay' });
    expect(readAnswer(essay, sent(essay, NO_ANSWER))).toMatchObject({ kind: 'essay', text: NO_ANSWER });
    expect(readAnswer(essay, sent(essay, ''))).toMatchObject({ kind: 'essay', text: '' });
  });

  it('says true/false in words from the saved value', () => {
    const question = q({ type: 'true-false', correctAnswer: 'true' });
    expect(readAnswer(question, sent(question, 'true'))).toEqual({ kind: 'true-false', given: 'True', key: 'True' });
  });

  it('does not fit a question whose prompts or gap text changed since the answer was saved', () => {
    const pairs = [
      { prompt: 'France', answer: 'Paris' },
      { prompt: 'Spain', answer: 'Madrid' },
    ];
    const before = q({ type: 'matching', pairs });
    const after = q({ type: 'matching', pairs: [{ prompt: 'Italy', answer: 'Rome' }, pairs[1]] });
    expect(readAnswer(after, sent(before, encodeMatches(['Paris', 'Madrid'])))).toBeUndefined();
    const gaps = q({ type: 'fill-blanks', gapText: 'A [[1]].', blanks: [{ accepted: ['a'] }] });
    const edited = q({ type: 'fill-blanks', gapText: 'B [[1]].', blanks: [{ accepted: ['a'] }] });
    expect(readAnswer(edited, sent(gaps, encodeBlanks(['a'])))).toBeUndefined();
    expect(readAnswer(gaps, sent(gaps, encodeBlanks(['a'])))).toMatchObject({ right: 1 });
  });
});

describe('an answer laid out for the grader', () => {
  const questions = makeKindsQuestions();
  const shown = (i: number, change: Partial<ReturnType<typeof kindAnswer>> = {}) => ({
    ...kindAnswer(questions[i]!, i, KINDS_ANSWERS[i]),
    ...change,
  });

  it('marks the right order’s neighbouring pairs kept or broken', () => {
    expect(readAnswer(questions[0], shown(0))).toEqual({
      kind: 'ordering',
      given: ['Hypothesise', 'Experiment', 'Conclude', 'Observe'],
      right: ['Observe', 'Hypothesise', 'Experiment', 'Conclude'],
      pairs: [
        { first: 'Observe', second: 'Hypothesise', kept: false },
        { first: 'Hypothesise', second: 'Experiment', kept: true },
        { first: 'Experiment', second: 'Conclude', kept: true },
      ],
    });
  });

  it('takes the server’s parts over its own reckoning, and reckons them when the server sent none', () => {
    const fromServer = readAnswer(questions[1], shown(1, { parts: [false, false, true] }));
    expect(fromServer?.kind === 'matching' && fromServer.rows.map((r) => r.isRight)).toEqual([false, false, true]);
    const reckoned = readAnswer(questions[1], shown(1, { parts: undefined }));
    expect(reckoned?.kind === 'matching' && reckoned.rows).toEqual([
      { prompt: 'France', chosen: 'Paris', right: 'Paris', isRight: true },
      { prompt: 'Spain', chosen: 'Lisbon', right: 'Madrid', isRight: false },
      { prompt: 'Italy', chosen: 'Rome', right: 'Rome', isRight: true },
    ]);
  });

  it('gives each gap its value, its accepted answers and whether it is right', () => {
    const view = readAnswer(questions[2], shown(2));
    expect(view).toMatchObject({ kind: 'fill-blanks', right: 2, total: 3 });
    expect(view?.kind === 'fill-blanks' && view.pieces.filter((p) => 'gap' in p)).toEqual([
      { gap: 0, value: 'Paris', accepted: ['Paris'], isRight: true },
      { gap: 1, value: 'Barcelona', accepted: ['Madrid'], isRight: false },
      { gap: 2, value: 'roma', accepted: ['Rome', 'Roma'], isRight: true },
    ]);
  });

  it('shows a quantity in the key’s unit and the key with its unit and tolerance', () => {
    expect(readAnswer(questions[3], shown(3))).toEqual({
      kind: 'quantity',
      given: '12.5 cm',
      converted: '0.125 m',
      keys: ['0.125 m ± 1%'],
      isRight: true,
      values: [],
    });
    const wrong = readAnswer(questions[3], shown(3, { answer: '0.2', answerValue: '0.2' }));
    expect(wrong).toMatchObject({ given: '0.2', converted: null, isRight: false });
  });

  it("shows a calculated question's values for this candidate with their key", () => {
    expect(readAnswer(questions[4], shown(4, { correctAnswer: '12', calculatedValues: { a: 3, b: 4 } }))).toEqual({
      kind: 'quantity',
      given: '12.001',
      converted: null,
      keys: ['12 ± 0.01'],
      isRight: true,
      values: [
        { name: 'a', value: '3' },
        { name: 'b', value: '4.0' },
      ],
    });
  });

  it('says true/false and essays in words, with the essay’s limits', () => {
    expect(readAnswer(questions[5], shown(5))).toEqual({ kind: 'true-false', given: 'False', key: 'True' });
    expect(readAnswer(questions[6], shown(6))).toEqual({
      kind: 'essay',
      text: KINDS_ANSWERS[6],
      formatted: true,
      minWords: 5,
      maxWords: 20,
    });
  });

  it('reads the words back when the server sent no saved answer', () => {
    for (const i of [0, 1, 2, 3, 5, 6])
      expect(readAnswer(questions[i], shown(i, { answerValue: undefined }))).toEqual(
        readAnswer(questions[i], shown(i)),
      );
  });

  it('falls back to the text when the exam’s question is missing, of another type or edited since', () => {
    expect(readAnswer(undefined, shown(1))).toBeUndefined();
    expect(readAnswer(questions[0], shown(1))).toBeUndefined();
    const edited = q({
      type: 'matching',
      pairs: [
        { prompt: 'Germany', answer: 'Berlin' },
        { prompt: 'Spain', answer: 'Madrid' },
      ],
    });
    expect(readAnswer(edited, shown(1))).toBeUndefined();
    expect(readAnswer(edited, shown(1, { answerValue: undefined }))).toBeUndefined();
  });
});
