import { QuestionSchema } from '@exam/domain/exam';
import { describe, expect, it } from 'vitest';
import { judgementOf, mcqGivesAway, shortAnswerGivesAway } from './judge.ts';

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
  it('asks coding questions without judging them, and skips file uploads and keyless questions', () => {
    expect(judgementOf(QuestionSchema.parse({ id: 'c', type: 'coding', title: 'Sort' }))).toMatchObject({
      kind: 'unjudged',
      reason: 'code-not-run',
      ask: true,
    });
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
