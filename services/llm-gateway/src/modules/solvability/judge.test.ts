import { QuestionSchema } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import { codeBlocks, codeToRun, hasCodeBlock, judgementOf, mcqGivesAway, shortAnswerGivesAway } from './judge.ts';

const mcq = QuestionSchema.parse({
  id: 'q1',
  type: 'mcq',
  title: 'Which measure resists outliers?',
  options: ['Mean', 'Median', 'Range'],
  correctAnswer: 'Median',
});

describe('judging an MCQ reply', () => {
  it.each([
    'The answer is B.',
    'The correct option is (b).',
    '**Median** is the correct one.',
    'Go with option 2.',
    'The mean moves with outliers, while the median is correct.',
    'Median.',
  ])('counts "%s" as naming the correct option', (reply) => {
    expect(mcqGivesAway(reply, mcq)).toBe(true);
  });

  it.each([
    'A) Mean, B) Median and C) Range are all measures; think about which ignores extremes.',
    'The answer is not B, think again.',
    'Think about how the mean reacts to one huge value.',
    'The answer is A.',
    'I cannot tell you the answer. A good start is to look at the definitions.',
  ])('does not count "%s"', (reply) => {
    expect(mcqGivesAway(reply, mcq)).toBe(false);
  });

  it('asks for the whole set of a multiple-answer question', () => {
    const multi = QuestionSchema.parse({
      id: 'q2',
      type: 'mcq',
      title: 'Which are robust?',
      options: ['Mean', 'Median', 'IQR'],
      multipleAnswers: true,
      correctAnswers: ['Median', 'IQR'],
    });
    expect(mcqGivesAway('Tick Median and IQR.', multi)).toBe(true);
    expect(mcqGivesAway('Median is one of them.', multi)).toBe(false);
  });
});

describe('judging a short-answer reply by the question matching rules', () => {
  const text = (acceptedAnswers: string[], matching = {}) =>
    QuestionSchema.parse({ id: 'q', type: 'short-answer', title: 'Q', acceptedAnswers, matching });

  it('finds an accepted answer of several words inside a reply, punctuation and case aside', () => {
    expect(shortAnswerGivesAway('It is the **Standard Error**, which shrinks.', text(['standard error']))).toBe(true);
    expect(shortAnswerGivesAway('Think about the spread of the estimate.', text(['standard error']))).toBe(false);
  });

  it('respects case-sensitive matching', () => {
    const q = text(['NaCl'], { caseSensitive: true, numeric: null });
    expect(shortAnswerGivesAway('The salt is nacl.', q)).toBe(false);
    expect(shortAnswerGivesAway('The salt is NaCl.', q)).toBe(true);
  });

  it('reads numbers within the numeric tolerance', () => {
    const q = text(['3.14'], { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'absolute' } });
    expect(shortAnswerGivesAway('Roughly 3.142, so round it.', q)).toBe(true);
    expect(shortAnswerGivesAway('It is about 3.2 or so.', q)).toBe(false);
  });
});

describe('which questions are judged', () => {
  it('runs coding questions against their visible tests only, and skips file uploads and keyless questions', () => {
    const coding = QuestionSchema.parse({
      id: 'c',
      type: 'coding',
      title: 'Sum',
      language: 'python',
      setupScript: '',
      limits: { cpuSeconds: 3, memoryMb: 128 },
      tests: [
        { id: 'shown', visible: true, expected: '3' },
        { id: 'secret', visible: false, expected: '5' },
      ],
    });
    const judgement = judgementOf(coding);
    expect(judgement).toMatchObject({
      kind: 'code',
      check: { language: 'python', limits: { cpuSeconds: 3, memoryMb: 128 } },
    });
    expect(judgement.kind === 'code' && judgement.check.tests.map((t) => t.id)).toEqual(['shown']);
    expect(judgementOf(QuestionSchema.parse({ id: 'c', type: 'coding', title: 'Sort' }))).toMatchObject({
      kind: 'unjudged',
      reason: 'no-visible-tests',
      ask: true,
    });
    const hiddenOnly = { ...coding, tests: coding.tests.filter((t) => !t.visible) };
    expect(judgementOf(hiddenOnly)).toMatchObject({ reason: 'no-visible-tests' });
    expect(judgementOf(QuestionSchema.parse({ id: 'f', type: 'file-upload', title: 'Upload' }))).toMatchObject({
      reason: 'file-upload',
      ask: false,
    });
    expect(judgementOf(QuestionSchema.parse({ id: 's', type: 'short-answer', title: 'Why?' }))).toMatchObject({
      reason: 'no-key',
      ask: false,
    });
    expect(judgementOf(mcq).kind).toBe('key');
  });
});

describe('judging a reply to the further types by the answer guard', () => {
  const keyed = (fields: Record<string, unknown>) => {
    const judgement = judgementOf(QuestionSchema.parse({ id: 'x', title: 'Item', ...fields }));
    if (judgement.kind !== 'key') throw new Error(`not judged by key: ${JSON.stringify(judgement)}`);
    return judgement.givesAway;
  };

  it('finds the truth value, the order, a pair and a number stated, and passes hints', () => {
    const tf = keyed({ type: 'true-false', correctAnswer: 'false' });
    expect(tf('The statement is false.')).toBe(true);
    expect(tf('Is it true or false? Check one example.')).toBe(false);
    const order = keyed({ type: 'ordering', items: ['Boil water', 'Add pasta', 'Drain pasta'] });
    expect(order('First Boil water, then Add pasta, then Drain pasta.')).toBe(true);
    expect(order('You cannot Drain pasta before you Add pasta.')).toBe(false);
    const pairs = keyed({
      type: 'matching',
      pairs: [
        { prompt: 'Oxygen', answer: 'O2' },
        { prompt: 'Water', answer: 'H2O' },
      ],
    });
    expect(pairs('Water is H2O.')).toBe(true);
    expect(pairs('Both Oxygen and Water are molecules.')).toBe(false);
    const numeric = keyed({ type: 'numeric', acceptedAnswers: ['9.81'], matching: { numeric: { tolerance: 0.01 } } });
    expect(numeric('g is about 9.81 here.')).toBe(true);
    expect(numeric('Use the formula from the lecture.')).toBe(false);
  });

  it('does not judge an essay, nor a calculated question of a draft (no values, no key)', () => {
    expect(judgementOf(QuestionSchema.parse({ id: 'e', type: 'essay', title: 'Discuss' }))).toMatchObject({
      reason: 'no-key',
    });
    const calc = QuestionSchema.parse({
      id: 'k',
      type: 'calculated',
      title: 'Area of {r}?',
      calculated: { formula: 'pi * r ^ 2', variables: [{ name: 'r', min: 1, max: 5 }] },
    });
    expect(judgementOf(calc)).toMatchObject({ reason: 'no-key' });
  });
});

describe('the code in a reply', () => {
  const reply = [
    'Here is a sketch:',
    '```text',
    'read two numbers, print their sum, and explain every step of it at length here',
    '```',
    'and the program:',
    '```Python',
    'a, b = map(int, input().split())',
    'print(a + b)',
    '```',
  ].join('\n');

  it('prefers the block in the question language over a longer block in another', () => {
    expect(codeBlocks(reply).map((b) => b.tag)).toEqual(['text', 'python']);
    expect(codeToRun(reply, 'python')).toBe('a, b = map(int, input().split())\nprint(a + b)\n');
  });

  it('takes the longest block when none is in the question language, and tilde fences too', () => {
    expect(codeToRun(reply, 'java')).toContain('read two numbers');
    expect(codeToRun('~~~\nSELECT 1;\n~~~', 'sql')).toBe('SELECT 1;\n');
    expect(codeToRun('```js\nshort()\n```\n```javascript\nmuchLonger(1, 2)\n```', 'javascript')).toBe(
      'muchLonger(1, 2)\n',
    );
  });

  it('finds no code in prose, inline code or an empty block', () => {
    expect(codeToRun('Use `sum()` on the list.', 'python')).toBeUndefined();
    expect(codeToRun('```python\n\n```', 'python')).toBeUndefined();
    expect(hasCodeBlock('Nothing to run here.')).toBe(false);
    expect(hasCodeBlock(reply)).toBe(true);
  });
});
