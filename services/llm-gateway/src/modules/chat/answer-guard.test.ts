import { QuestionSchema } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import { AnswerGuard, answerKeysOf, MAX_KEY_CHARS, normaliseForMatch, type AnswerKey } from './answer-guard.ts';

const mcq = (options: string[], correct: string) =>
  QuestionSchema.parse({ id: 'm', type: 'mcq', title: 'Pick one', options, correctAnswer: correct });
const short = (accepted: string[]) =>
  QuestionSchema.parse({ id: 's', type: 'short-answer', title: 'Say it', acceptedAnswers: accepted });

/** Feeds the chunks one by one; answers what was released and the leak, as the stream would see them. */
function run(keys: AnswerKey[], chunks: string[]) {
  const guard = new AnswerGuard(keys);
  let released = '';
  for (const chunk of chunks) {
    const step = guard.push(chunk);
    released += step.release;
    if (step.leak) return { released, leak: step.leak };
  }
  const last = guard.end();
  return { released: released + last.release, leak: last.leak };
}

describe('answerKeysOf', () => {
  it('takes the correct option text and accepted answers, never letters, short or generic keys', () => {
    const keys = answerKeysOf([
      mcq(['Mean', 'Median', 'Mode'], 'Median'),
      short(['Standard Error', '4', 'SE']),
      mcq(['True', 'False'], 'False'),
      QuestionSchema.parse({
        id: 'mm',
        type: 'mcq',
        title: 'Pick two',
        options: ['Alpha', 'Beta', 'Gamma'],
        multipleAnswers: true,
        correctAnswers: ['Alpha', 'Gamma'],
      }),
      QuestionSchema.parse({ id: 'c', type: 'coding', title: 'Write code', language: 'python' }),
    ]);
    expect(keys).toEqual([
      { questionIndex: 0, key: 'median' },
      { questionIndex: 1, key: 'standard error' },
      { questionIndex: 3, key: 'alpha' },
      { questionIndex: 3, key: 'gamma' },
    ]);
  });

  it('matches a long key by its first words only, cut at a word end', () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const [key] = answerKeysOf([short([long])]);
    expect(key!.key.length).toBeLessThanOrEqual(MAX_KEY_CHARS);
    expect(long.startsWith(key!.key)).toBe(true);
    expect(key!.key.endsWith(' ')).toBe(false);
  });

  it('normalises case, accents, punctuation and spacing the same way for keys and replies', () => {
    expect(normaliseForMatch('  Théorème   Central-Limite!! ')).toBe('theoreme central limite');
    expect(normaliseForMatch('p–value')).toBe(normaliseForMatch('P VALUE'));
  });
});

describe('AnswerGuard', () => {
  const keys = answerKeysOf([short(['standard error']), mcq(['Mean', 'Median', 'Mode'], 'Median')]);

  it('stops a reply whose key arrives split across chunks, before any of the key is released', () => {
    const { released, leak } = run(keys, ['So the answer ', 'is the Stan', 'dard', ' Er', 'ror of the mean.']);
    expect(leak).toEqual({ questionIndex: 0, key: 'standard error' });
    expect(released.toLowerCase()).not.toContain('stan');
    // Everything up to the word break where the key begins: "the" could not start a key.
    expect(released).toBe('So the answer is the');
  });

  it('releases a chunk at once when no tail of it can begin a key, and holds only a tail that can', () => {
    const guard = new AnswerGuard(keys);
    // The first token of an ordinary reply reaches the candidate without waiting for the next one.
    expect(guard.push('Think')).toEqual({ release: 'Think', leak: undefined });
    expect(guard.push(' about')).toEqual({ release: ' about', leak: undefined });
    // " st" may become "standard error", " me" "median": held from their word breaks.
    expect(guard.push(' the st')).toEqual({ release: ' the', leak: undefined });
    expect(guard.push('ep and the me')).toEqual({ release: ' step and the', leak: undefined });
    expect(guard.push('ans.')).toEqual({ release: ' means', leak: undefined });
    expect(guard.end()).toEqual({ release: '.', leak: undefined });
  });

  it('finds a key written with other case, accents and punctuation', () => {
    expect(run(keys, ['It is the ME', 'DIAN.']).leak?.questionIndex).toBe(1);
    expect(run(keys, ['standard-', '-error']).leak?.questionIndex).toBe(0);
  });

  it('lets a reply through whole when a key only appears inside other words', () => {
    const text = 'The medians of both samples differ; a nonstandard errorless fit. Mode and mean are not it.';
    expect(run(keys, text.match(/.{1,7}/g)!)).toEqual({ released: text, leak: undefined });
  });

  it('holds back no more than the longest key, a boundary and the word it falls in, and releases the rest at the end', () => {
    const text = 'A long explanation that says nothing at all about the question.';
    const guard = new AnswerGuard(keys);
    const first = guard.push(text);
    expect(first.release.length).toBeGreaterThan(0);
    expect(text.length - first.release.length).toBeLessThanOrEqual('standard error'.length + 1 + 'question.'.length);
    expect(guard.end().release).toBe(text.slice(first.release.length));
  });

  it('never stops a reply in the middle of a word', () => {
    const chunks = ['Here is a long enough preamble for the tail to move on: it is the stand', 'ard error'];
    const { released, leak } = run(keys, chunks);
    expect(leak?.questionIndex).toBe(0);
    expect(released.length).toBeGreaterThan(0);
    expect(chunks.join('').charAt(released.length)).toMatch(/[\s:]/);
  });

  it('catches a key at the very end of the reply', () => {
    expect(run(keys, ['The answer: median']).leak?.questionIndex).toBe(1);
  });

  it('passes everything through at once when there is no key to enforce', () => {
    const guard = new AnswerGuard([]);
    expect(guard.push('Median is 4.')).toEqual({ release: 'Median is 4.', leak: undefined });
    expect(guard.end()).toEqual({ release: '', leak: undefined });
  });
});
