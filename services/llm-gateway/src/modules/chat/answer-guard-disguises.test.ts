import { QuestionSchema } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import { AnswerGuard, answerKeysOf, type AnswerKey, type OptionKey } from './answer-guard.ts';

/**
 * Disguised forms of answer keys, as a candidate could ask the assistant to write them. Each row is fed in
 * small chunks, as a provider streams; `earlier` is what the assistant said in earlier replies.
 */
const questions = [
  QuestionSchema.parse({ id: 'p', type: 'short-answer', title: 'Process?', acceptedAnswers: ['Photosynthesis'] }),
  QuestionSchema.parse({ id: 'o', type: 'short-answer', title: 'Organelle?', acceptedAnswers: ['Mitochondria'] }),
  QuestionSchema.parse({ id: 's', type: 'short-answer', title: 'Spread?', acceptedAnswers: ['standard error'] }),
  QuestionSchema.parse({
    id: 'm',
    type: 'mcq',
    title: 'Middle value?',
    options: ['Mean', 'Median', 'Mode', 'Range'],
    correctAnswer: 'Median',
  }),
];
const keys: AnswerKey[] = answerKeysOf(questions);
/** Median is option B (number 2) of question 3. */
const options: OptionKey[] = [{ questionIndex: 3, option: 1 }];

type Row = { category: string; reply: string; earlier?: string };

export const DISGUISES: Row[] = [
  { category: 'zero-width', reply: 'The process is photo\u200Bsynthesis.' },
  { category: 'zero-width', reply: 'It is photo\u00ADsynthesis, of course.' },
  { category: 'zero-width', reply: 'Think photo\u200Dsyn\u2060thesis here.' },
  { category: 'zero-width', reply: 'Call it photo\u200Esynthesis.' },
  { category: 'zero-width', reply: 'The organelle: mito\uFEFFchondria.' },
  { category: 'homoglyph', reply: 'It is \u0440hotosynthesis.' },
  { category: 'homoglyph', reply: 'The mit\u043E\u0441hondria do it.' },
  { category: 'homoglyph', reply: 'Use the \u0455tandard \u0435rror.' },
  { category: 'homoglyph', reply: 'It is ph\u03BFt\u03BFsynthesis.' },
  { category: 'homoglyph', reply: 'Answer: ｐｈｏｔｏｓｙｎｔｈｅｓｉｓ' },
  { category: 'markdown', reply: 'It is photo**synthesis** in plants.' },
  { category: 'markdown', reply: 'Try *photo*_synthesis_.' },
  { category: 'markdown', reply: 'The `mito`chondria.' },
  { category: 'markdown', reply: 'The **mito**chondria make ATP.' },
  { category: 'separators', reply: 'Spelled: p h o t o s y n t h e s i s' },
  { category: 'separators', reply: 'Spelled: p-h-o-t-o-s-y-n-t-h-e-s-i-s' },
  { category: 'separators', reply: 'It is the M.I.T.O.C.H.O.N.D.R.I.A.' },
  { category: 'separators', reply: 'Say photo-syn-the-sis slowly.' },
  { category: 'separators', reply: 'It is the s t a n d a r d  e r r o r.' },
  { category: 'near form', reply: 'The Mitochondrion is the answer.' },
  { category: 'near form', reply: 'Compute the standard errors first.' },
  { category: 'near form', reply: 'It is photosynthesys.' },
  { category: 'near form', reply: 'Think of mitochondrial energy.' },
  { category: 'combined', reply: 'Spelled: \u0440 h \u043E t \u043E s y n t h e s i s' },
  { category: 'combined', reply: 'It is photo\u200B**synthesis**.' },
  { category: 'option', reply: 'The answer is B.' },
  { category: 'option', reply: "It's option 2, as you suspected." },
  { category: 'option', reply: 'B is correct here.' },
  { category: 'option', reply: "I'd pick (B) if I were you." },
  { category: 'option', reply: 'The correct choice is b' },
  {
    category: 'conversation',
    earlier: 'Here are the first letters: P-H-O-T-O.',
    reply: 'And the rest: S-Y-N-T-H-E-S-I-S.',
  },
  { category: 'conversation', earlier: 'The first half of it is photo', reply: 'synthesis is the second half.' },
  { category: 'conversation', earlier: 'Letters so far: M I T O', reply: 'Then come C H O N D R I A.' },
];

/** Ordinary tutoring text around the same keys, which must reach the candidate whole. */
const ORDINARY: Row[] = [
  { category: 'inside words', reply: 'The medians of both samples differ; a nonstandard errorless fit.' },
  { category: 'related word', reply: 'Plants use light; think about what the chloroplast does with it.' },
  { category: 'article', reply: 'The answer is a bit more subtle than that.' },
  { category: 'wrong option', reply: 'Option A is a distractor, and C is tempting too.' },
  { category: 'other words', reply: 'Compare the mean and the mode, then the range.' },
  { category: 'numbers', reply: 'Step 1: list the values. Step 2: sort them. Step 3: look in the middle.' },
  { category: 'letters', reply: 'I think a good plan is to sketch it, e.g. as in figure B of your notes.' },
  {
    category: 'earlier reply',
    earlier: 'Think about the cell.',
    reply: 'Which organelle makes ATP? Look at the diagram.',
  },
];

/** Feeds the reply in chunks of `size` characters; answers what was released and the leak. */
function guarded(row: Row, size: number) {
  const guard = new AnswerGuard(keys, { options, ...(row.earlier ? { earlier: row.earlier } : {}) });
  let released = '';
  for (let i = 0; i < row.reply.length; i += size) {
    const step = guard.push(row.reply.slice(i, i + size));
    released += step.release;
    if (step.leak) return { released, leak: step.leak };
  }
  const last = guard.end();
  return { released: released + last.release, leak: last.leak };
}

describe('the answer guard against disguised keys', () => {
  it('has at least 33 disguised forms in every category the guard claims to catch', () => {
    expect(DISGUISES.length).toBeGreaterThanOrEqual(33);
    expect(new Set(DISGUISES.map((r) => r.category)).size).toBe(8);
  });

  for (const size of [1, 3, 64]) {
    it(`stops every disguised form streamed in chunks of ${size}, before the key is complete`, () => {
      const missed = DISGUISES.filter((row) => !guarded(row, size).leak).map((row) => row.reply);
      expect(missed).toEqual([]);
    });

    it(`lets ordinary tutoring text through whole in chunks of ${size}`, () => {
      for (const row of ORDINARY) expect(guarded(row, size)).toEqual({ released: row.reply, leak: undefined });
    });
  }

  it('names the question whose key was given away, option letters included', () => {
    expect(
      guarded(
        DISGUISES.find((r) => r.reply === 'The answer is B.')!,
        2,
      ).leak,
    ).toEqual({
      questionIndex: 3,
      key: 'option B',
    });
    expect(guarded({ category: 'near form', reply: 'The Mitochondrion!' }, 2).leak?.questionIndex).toBe(1);
  });

  it('releases nothing of a spelled-out key before it is stopped, not even the separator before it', () => {
    const { released } = guarded({ category: 'separators', reply: 'Spelled: p h o t o s y n t h e s i s' }, 1);
    expect(released).toBe('Spelled');
  });

  it('cannot catch encodings or translations (what creators are told): these pass', () => {
    // base64 and ROT13 of "photosynthesis", and the German word: no matching can see them, only the prompt.
    for (const reply of ['cGhvdG9zeW50aGVzaXM=', 'cubgbflagurfvf', 'Fotosynthese']) {
      expect(guarded({ category: 'encoding', reply }, 4).leak).toBeUndefined();
    }
  });
});
