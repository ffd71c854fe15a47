import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedEditDistance, groupAnswers, groupCodeAnswers, type AnswerToGroup } from './answer-groups.ts';
import { tokenize } from './code-tokens.ts';

const answersOf = (...texts: string[]): AnswerToGroup[] => texts.map((answer, i) => ({ resultId: `r${i}`, answer }));

const idsOf = (groups: ReturnType<typeof groupAnswers>) => groups.map((g) => g.resultIds);

describe('boundedEditDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit each', () => {
    expect(boundedEditDistance('kitten', 'sitting', 5)).toBe(3);
    expect(boundedEditDistance('mitochondria', 'mitocondria', 2)).toBe(1);
    expect(boundedEditDistance('photosynthesis', 'photosynthesys', 2)).toBe(1);
    expect(boundedEditDistance('receive', 'recieve', 2)).toBe(1);
    expect(boundedEditDistance('abc', 'abc', 0)).toBe(0);
  });

  it('equals the full optimal string alignment distance, capped at limit + 1, on random strings', () => {
    // The textbook O(n·m) recurrence (Damerau–Levenshtein restricted to non-overlapping transpositions).
    const full = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i + j));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          const cost = a[i - 1] === b[j - 1] ? 0 : 1;
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
            d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
          }
        }
      }
      return d[a.length]![b.length]!;
    };
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 12 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 6 }), (a, b, limit) => {
        expect(boundedEditDistance(a, b, limit)).toBe(Math.min(full(a, b), limit + 1));
      }),
      { numRuns: 2000, seed: 32 },
    );
  });

  it('stops at limit + 1 when the strings are further apart than the limit', () => {
    expect(boundedEditDistance('kitten', 'sitting', 2)).toBe(3);
    expect(boundedEditDistance('short', 'a much longer answer', 3)).toBe(4);
    expect(boundedEditDistance('abcdefgh', 'hgfedcba', 1)).toBe(2);
  });
});

describe('groupAnswers', () => {
  it('puts identical answers in one group', () => {
    const groups = groupAnswers(answersOf('Mitochondria', 'Mitochondria', 'Ribosome'));
    expect(idsOf(groups)).toEqual([['r0', 'r1'], ['r2']]);
    expect(groups[0]).toMatchObject({ answer: 'Mitochondria', forms: 1, empty: false });
  });

  it('puts whitespace and case variants in one group unless the question is case-sensitive', () => {
    const answers = answersOf('  the  Nucleus ', 'The nucleus', 'THE\tNUCLEUS');
    expect(idsOf(groupAnswers(answers))).toEqual([['r0', 'r1', 'r2']]);
    expect(groupAnswers(answers)[0]!.forms).toBe(1);
    // Case-sensitive: three forms, two or more edits apart in 11 characters; equal sizes go in code-unit order.
    expect(idsOf(groupAnswers(answers, true))).toEqual([['r2'], ['r1'], ['r0']]);
  });

  it('merges near-identical answers with a typo and names the group after the most common spelling', () => {
    const groups = groupAnswers(
      answersOf('photosynthesis', 'Photosynthesis', 'photosynthesys', 'photosinthesis', 'respiration'),
    );
    expect(idsOf(groups)).toEqual([['r0', 'r1', 'r2', 'r3'], ['r4']]);
    expect(groups[0]).toMatchObject({ forms: 3 });
    expect(groups[0]!.answer.toLowerCase()).toBe('photosynthesis');
  });

  it('merges a transposition and a missing letter in a longer answer', () => {
    const groups = groupAnswers(
      answersOf('the mitochondria is the powerhouse of the cell', 'teh mitochondria is the powerhouse of the cel'),
    );
    expect(idsOf(groups)).toEqual([['r0', 'r1']]);
  });

  it('keeps different answers apart, including short ones one letter apart and numbers one digit apart', () => {
    const groups = groupAnswers(
      answersOf('Paris', 'Pari', 'cat', 'bat', '1024', '1025', 'x = 12 meters', 'x = 13 meters'),
    );
    expect(groups).toHaveLength(8);
    expect(groups.every((g) => g.resultIds.length === 1)).toBe(true);
  });

  it('keeps a negation apart from the statement', () => {
    expect(groupAnswers(answersOf('it is soluble in water', 'it is not soluble in water'))).toHaveLength(2);
  });

  it('does not chain small slips into a different answer (members join the representative only)', () => {
    // Each step is one edit from the previous one, but "abcdefgh" and "abxyefgh" are two edits apart.
    const groups = groupAnswers(answersOf('abcdefgh', 'abcdefgh', 'abxdefgh', 'abxyefgh'));
    expect(idsOf(groups)).toEqual([['r0', 'r1', 'r2'], ['r3']]);
  });

  it('groups only identical texts past the fuzzy length limit', () => {
    const long = 'word '.repeat(60);
    const groups = groupAnswers(answersOf(long, long, `${long}x`));
    expect(idsOf(groups)).toEqual([['r0', 'r1'], ['r2']]);
  });

  it('puts empty and blank answers in their own group, never merged with a short answer', () => {
    const groups = groupAnswers(answersOf('', '   ', 'a', '\n', 'a'));
    const empty = groups.find((g) => g.empty);
    expect(empty?.resultIds).toEqual(['r0', 'r1', 'r3']);
    expect(empty?.answer).toBe('');
    expect(groups.find((g) => !g.empty)?.resultIds).toEqual(['r2', 'r4']);
  });

  it('orders groups largest first, then by answer', () => {
    const groups = groupAnswers(answersOf('beta', 'alpha', 'gamma', 'gamma', 'delta', 'gamma', 'delta'));
    expect(groups.map((g) => g.answer)).toEqual(['gamma', 'delta', 'alpha', 'beta']);
  });

  it('gives the same groups, ids and order whatever the order of the input', () => {
    const answers = answersOf('Osmosis', 'osmosis', 'osmossis', 'diffusion', '', 'Diffusion ', 'active transport');
    const forward = groupAnswers(answers);
    const backward = groupAnswers([...answers].reverse());
    expect(backward).toEqual(forward);
    expect(new Set(forward.map((g) => g.groupId)).size).toBe(forward.length);
    expect(forward.every((g) => /^g[0-9a-f]{8}(-\d+)?$/.test(g.groupId))).toBe(true);
  });

  it('keeps a group id when other answers come and go', () => {
    const before = groupAnswers(answersOf('osmosis', 'osmosis', 'diffusion'));
    const after = groupAnswers([...answersOf('osmosis', 'osmosis'), { resultId: 'r9', answer: 'transport' }]);
    expect(after.find((g) => g.answer === 'osmosis')?.groupId).toBe(
      before.find((g) => g.answer === 'osmosis')?.groupId,
    );
  });

  it('rejects a result id given twice', () => {
    expect(() => groupAnswers([...answersOf('a'), ...answersOf('b')])).toThrow(RangeError);
  });

  it('groups 1,000 answers of a cohort correctly', () => {
    const spellings = ['photosynthesis', 'Photosynthesis', 'photosynthesys', 'respiration', 'respiraton', 'osmosis'];
    const answers: AnswerToGroup[] = [];
    for (let i = 0; i < 1000; i++) {
      // Every tenth candidate writes something of their own; the rest use the common spellings.
      const answer = i % 10 === 0 ? `own answer number ${i}` : spellings[i % spellings.length]!;
      answers.push({ resultId: `r${String(i).padStart(4, '0')}`, answer });
    }
    const started = performance.now();
    const groups = groupAnswers(answers);
    console.log(
      `groupAnswers: 1,000 answers, ${groups.length} groups in ${(performance.now() - started).toFixed(1)} ms`,
    );
    const sizeOf = (text: string) => answers.filter((a) => a.answer.toLowerCase().startsWith(text)).length;
    expect(groups[0]!.resultIds).toHaveLength(sizeOf('photosynth'));
    expect(groups[1]!.resultIds).toHaveLength(sizeOf('respirat'));
    expect(groups[2]!.resultIds).toHaveLength(sizeOf('osmosis'));
    // The 100 own answers differ in their digits, so each stays alone.
    expect(groups).toHaveLength(103);
    expect(groups.flatMap((g) => g.resultIds).sort()).toEqual(answers.map((a) => a.resultId).sort());
  });
});

describe('groupCodeAnswers', () => {
  const code = (resultId: string, answer: string): AnswerToGroup => ({ resultId, answer });

  it('groups programs that differ only in comments and layout, never in a name, a number or a string', () => {
    const groups = groupCodeAnswers(
      [
        code('r1', 'def total(xs):\n    return sum(xs)\n'),
        code('r2', 'def total(xs):   # add them up\n  return sum( xs )'),
        code('r3', 'def total(xs):\n    return max(xs)\n'),
        code('r4', 'def total(xs):\n    return sum(xs) + 1\n'),
        code('r5', 'def total(xs):\n    return sum(xs) + 2\n'),
        code('r6', 'print("a")'),
        code('r7', "print('a')"),
        code('r8', '   '),
      ],
      'python',
    );
    const shared = groups.find((g) => g.resultIds.includes('r1'));
    expect(shared?.resultIds).toEqual(['r1', 'r2']);
    expect(shared?.forms).toBe(2);
    // Every other answer is alone: a different function, another literal, another quote style.
    expect(groups.filter((g) => g !== shared).every((g) => g.resultIds.length === 1)).toBe(true);
    expect(groups).toHaveLength(7);
    expect(groups.find((g) => g.resultIds[0] === 'r8')?.empty).toBe(true);
    expect(groups[0]).toBe(shared);
  });

  it('gives the same ids whatever the order of the answers', () => {
    const answers = [code('a', 'x = 1'), code('b', 'x=1'), code('c', 'y = 1')];
    const ids = (list: AnswerToGroup[]) =>
      groupCodeAnswers(list, 'python')
        .map((g) => `${g.groupId}:${g.resultIds.join(',')}`)
        .sort();
    expect(ids([...answers].reverse())).toEqual(ids(answers));
  });

  it('keeps the class tokens of the similarity report unchanged without literal', () => {
    expect(tokenize('total = count + 1  # c', 'python')).toEqual(['I', '=', 'I', '+', 'N']);
    expect(tokenize('total = count + 1  # c', 'python', { literal: true })).toEqual(['total', '=', 'count', '+', '1']);
  });
});
