import { QuestionSchema, toPublicQuestion } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import { AnswerGuard, answerKeysOf, type AnswerKey } from './answer-guard.ts';
import { calculatedShapes, significantDigits } from './structured-keys.ts';

/** Streams the reply in pieces of `size` characters; answers what the candidate saw and the key it stopped on. */
function stream(keys: AnswerKey[], reply: string, size = 3, earlier?: string) {
  const guard = new AnswerGuard(keys, earlier ? { earlier } : {});
  let shown = '';
  for (const chunk of reply.match(new RegExp(`[\\s\\S]{1,${size}}`, 'gu')) ?? []) {
    const step = guard.push(chunk);
    shown += step.release;
    if (step.leak) return { shown, leak: step.leak };
  }
  const last = guard.end();
  return { shown: shown + last.release, leak: last.leak };
}

const trueFalse = (correctAnswer: 'true' | 'false') =>
  QuestionSchema.parse({
    id: 'tf',
    type: 'true-false',
    title: 'The median of a sample always lies between its minimum and maximum.',
    correctAnswer,
  });
const ordering = QuestionSchema.parse({
  id: 'o',
  type: 'ordering',
  title: 'Put the steps of an analysis in order',
  items: ['Collect the data', 'Clean the data', 'Fit the model', 'Report the results'],
});
const matching = QuestionSchema.parse({
  id: 'm',
  type: 'matching',
  title: 'Match each country with its capital',
  pairs: [
    { prompt: 'France', answer: 'Paris' },
    { prompt: 'Spain', answer: 'Madrid' },
    { prompt: 'Italy', answer: 'Rome' },
  ],
  distractors: ['Lisbon'],
});
const gaps = QuestionSchema.parse({
  id: 'f',
  type: 'fill-blanks',
  title: 'Complete the sentence',
  gapText: 'Plants make sugar by [[1]] at about [[2]] degrees, [[3]] daylight.',
  blanks: [
    { kind: 'text', accepted: ['photosynthesis'] },
    { kind: 'numeric', accepted: ['37.5'], tolerance: 0.1 },
    { kind: 'text', accepted: ['in'] },
  ],
});
const numeric = QuestionSchema.parse({
  id: 'n',
  type: 'numeric',
  title: 'A 50 cm rod is cut into four equal parts. How long is each part?',
  acceptedAnswers: ['0.125'],
  matching: { numeric: { tolerance: 0.001, mode: 'absolute' } },
  units: {
    units: [
      { symbol: 'm', multiplier: 1 },
      { symbol: 'cm', multiplier: 100 },
      { symbol: 'mm', multiplier: 1000 },
    ],
  },
});

const keysOf = (q: ReturnType<typeof QuestionSchema.parse>) => answerKeysOf([q]);

describe('true/false: only a verdict on the statement is its key', () => {
  const keys = keysOf(trueFalse('true'));

  it.each([
    'The statement is true, since the median is one of the middle values.',
    'Q1: True.',
    'True. The median is a middle value, so it cannot leave the range.',
    'The answer is not false: think about where the middle value sits.',
    'In the end, true is the correct answer.',
  ])('stops "%s" before the value reaches the candidate', (reply) => {
    const { shown, leak } = stream(keys, reply);
    expect(leak).toMatchObject({ questionIndex: 0, key: 'true' });
    expect(shown.toLowerCase()).not.toMatch(/\btrue\b|\bfalse\b/);
  });

  it.each([
    'Is the statement true or false? Think about what the median is.',
    'It is true that outliers pull the mean; what does the median do with them?',
    'Decide whether it is always true or only sometimes: try a sample of three numbers.',
    'The statement is false for the mean of some samples, but this one is about the median.',
  ])('lets "%s" through', (reply) => {
    expect(stream(keys, reply)).toEqual({ shown: reply, leak: undefined });
  });

  it('guards only the open question when the candidate has one open', () => {
    const questions = [trueFalse('true'), { ...trueFalse('false'), id: 'tf2' }];
    expect(answerKeysOf(questions, 1).map((k) => k.key)).toEqual(['false']);
    expect(answerKeysOf(questions, null).map((k) => k.key)).toEqual(['true', 'false']);
  });
});

describe('ordering: the items named in the right order', () => {
  const keys = keysOf(ordering);

  it('stops a list of the steps in order before the last one that would settle it', () => {
    const reply = 'Here is the order:\n1. Collect the data\n2. Clean the data\n3. Fit the model\n4. Report the results';
    const { shown, leak } = stream(keys, reply);
    expect(leak?.questionIndex).toBe(0);
    expect(shown).toContain('Clean the data');
    expect(shown).not.toContain('Fit');
  });

  it('lets through steps named out of order or far apart', () => {
    for (const reply of [
      'Ask yourself when you would fit the model, and whether you can clean the data before you collect the data.',
      'Collect the data is a good start. Report the results comes at some point, but think about the rest yourself.',
    ])
      expect(stream(keys, reply)).toEqual({ shown: reply, leak: undefined });
  });

  it('guards no order of two items, nor of items too short to find', () => {
    const two = QuestionSchema.parse({ id: 't', type: 'ordering', title: 'Order', items: ['Alpha', 'Beta'] });
    const tiny = QuestionSchema.parse({ id: 'u', type: 'ordering', title: 'Order', items: ['1', '2', '3'] });
    expect(answerKeysOf([two, tiny])).toEqual([]);
  });
});

describe('matching: a prompt and its answer named together', () => {
  const keys = keysOf(matching);

  it.each(['France goes with Paris.', 'Madrid is the capital of Spain.', '- Italy → Rome'])('stops "%s"', (reply) => {
    const { shown, leak } = stream(keys, reply);
    expect(leak?.key).toMatch(/→/);
    expect(shown).not.toMatch(/France.*Paris|Madrid.*Spain|Italy.*Rome/s);
  });

  it('lets through the prompts and answers named apart or with others between', () => {
    for (const reply of [
      'France, Spain and Italy each have one capital among Paris, Madrid, Rome and Lisbon.',
      'Think about Spain: which of the cities hosts its government? Lisbon is a distractor.',
    ])
      expect(stream(keys, reply)).toEqual({ shown: reply, leak: undefined });
  });
});

describe('fill in the blanks: each gap keyed, trivial words left free', () => {
  const keys = keysOf(gaps);

  it('stops a text gap and a numeric gap within its tolerance', () => {
    expect(stream(keys, 'The first gap is Photosynthesis, of course.').leak?.key).toBe('photosynthesis');
    const numberLeak = stream(keys, 'Put 37.52 in the second gap.');
    expect(numberLeak.leak?.questionIndex).toBe(0);
    expect(numberLeak.shown).not.toContain('37');
  });

  it('lets through a short gap answer and a number outside the tolerance', () => {
    const reply = 'The third gap is a small word like in or on. Sugar is made at a warm temperature, 36 is too low.';
    expect(stream(keys, reply)).toEqual({ shown: reply, leak: undefined });
  });
});

describe('numeric: the value in any unit, within the tolerance', () => {
  const keys = keysOf(numeric);

  it.each(['Each part is 12.5 cm long.', 'That gives 125 mm.', 'So 0.125 m.', 'The answer is 0.1251', 'It is 12.5'])(
    'stops "%s" before the number',
    (reply) => {
      const { shown, leak } = stream(keys, reply, 2);
      expect(leak?.questionIndex).toBe(0);
      expect(shown).not.toMatch(/12|0\.1/);
    },
  );

  it('lets through other numbers, a wrong unit and the numbers the question states', () => {
    const reply = 'Start from the 50 cm you are given, divide by the 4 parts: 12.5 m would be far too long, 25 cm too.';
    expect(stream(keys, reply, 2)).toEqual({ shown: reply, leak: undefined });
  });

  it('holds a number split across chunks until it is complete', () => {
    const guard = new AnswerGuard(keys);
    expect(guard.push('Each part is 12').release).toBe('Each part is ');
    expect(guard.push('.5 c').release).toBe('');
    expect(guard.push('m long').leak).toBeDefined();
  });

  it('guards no key of fewer than two significant digits', () => {
    expect(significantDigits(100)).toBe(1);
    expect(significantDigits(0.125)).toBe(3);
    const round = QuestionSchema.parse({ ...numeric, acceptedAnswers: ['100'] });
    expect(answerKeysOf([round])).toEqual([]);
  });
});

describe("calculated: the candidate's own key", () => {
  it("stops the candidate's value, not the question's own numbers", () => {
    const seen = toPublicQuestion(
      QuestionSchema.parse({ id: 'c', type: 'short-answer', title: 'A car covers 150 m in 12 s. Its speed?' }),
    );
    const keys = calculatedShapes(
      [
        {
          questionIndex: 0,
          key: '12.5',
          tolerance: { tolerance: 0.01, mode: 'absolute' },
          units: { units: [{ symbol: 'm/s', multiplier: 1 }], required: false },
        },
      ],
      () => seen,
    ).map((k) => ({ questionIndex: k.questionIndex, key: k.key, shape: k.shape }));
    expect(stream(keys, 'Divide 150 by 12: you get 12.5 m/s.').leak?.key).toBe('12.5');
    const clean = 'Divide the 150 m by the 12 s, and keep the unit m/s.';
    expect(stream(keys, clean)).toEqual({ shown: clean, leak: undefined });
  });
});

describe('essay', () => {
  it('has no key to guard', () => {
    const essay = QuestionSchema.parse({ id: 'e', type: 'essay', title: 'Discuss the mean and the median' });
    expect(answerKeysOf([essay])).toEqual([]);
  });
});
