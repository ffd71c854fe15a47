// What a candidate's page sends with each autosave (@exam/domain/answer-operations): the edit operations since its
// last acknowledged save, typed words coalesced into one operation each with the time of every key, in the compact
// form the page writes (toCompact). 5–20 words a
// save is more than a save carries in practice (the page saves a second or two after typing stops, a few words),
// so the cost measured here is an upper bound.
import { toCompact, type CompactOperation, type SaveOperations } from '../../packages/domain/src/answer-operations.ts';

const WORDS = ['cell', 'membrane', 'the', 'energy', 'of', 'photosynthesis', 'light', 'is', 'converted', 'into'];

/** A deterministic pseudo-random integer in [0, n) from a seed (one step of a linear congruential generator). */
const pick = (seed: number, n: number) => (((seed * 1103515245 + 12345) >>> 0) % 2 ** 31) % n;

/**
 * Each question's operations as a page records them. `next` gives one save's chunk — the words typed since the
 * previous save, from where the server's count stood — and assumes the save is stored, as the bench checks after.
 */
export function pageOperations() {
  const questions = new Map<string, { count: number; length: number; t: number }>();
  return {
    next(key: string, n: number): SaveOperations {
      const state = questions.get(key) ?? { count: 0, length: 0, t: 0 };
      const start = state.count;
      const ops: CompactOperation[] = Array.from({ length: 5 + pick(n, 16) }, (_v, i) => {
        const word = `${WORDS[pick(n + i, WORDS.length)]!} `;
        const keys = Array.from(word.slice(1), (_c, k) => 80 + pick(n * 31 + i * 7 + k, 170));
        // In the form the page writes (toCompact: the insertion's short form, keys encoded).
        const at = new Date(state.t).toISOString();
        const op: CompactOperation = toCompact(
          { at, from: state.length, to: state.length, insert: word, source: 'typed', keys },
          0,
        );
        state.t += keys.reduce((sum, gap) => sum + gap, 0) + 400 + pick(n + i * 3, 2000);
        state.length += word.length;
        return op;
      });
      state.count += ops.length;
      questions.set(key, state);
      return { start, ops };
    },
    /** How many operations each question has sent, by key. */
    sent: () => new Map([...questions].map(([key, state]) => [key, state.count])),
  };
}
