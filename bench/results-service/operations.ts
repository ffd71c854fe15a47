// What a candidate's page sends with each autosave (@exam/domain/answer-operations): the edit operations since its
// last acknowledged save, in the compact form the page writes (toCompact). Two models:
//   - 'typing' (the default): the chunks a page really sends. One simulated hour of a fast typist (about 300 typed
//     characters a minute, 10% revised, pauses at words, sentences and paragraphs; typing-sessions.testing.ts, the
//     model bench/timeline/storage.ts measures), recorded as the page records it: key events coalesced, a save
//     whenever typing pauses 400 ms (the page's autosave debounce). About 1.9 operations and 116 bytes a save.
//   - 'words': 5–20 typed words a save, one coalesced operation per word with every key's time (about 450 bytes
//     a save), an upper bound: a page saves after a short pause, a few words at most.
import { toCompact, type CompactOperation, type SaveOperations } from '../../packages/domain/src/answer-operations.ts';
import { createRandom, recordKeys, simulateWriting } from '../../packages/domain/src/typing-sessions.testing.ts';

export type OperationsModel = 'typing' | 'words';

const WORDS = ['cell', 'membrane', 'the', 'energy', 'of', 'photosynthesis', 'light', 'is', 'converted', 'into'];

/** A deterministic pseudo-random integer in [0, n) from a seed (one step of a linear congruential generator). */
const pick = (seed: number, n: number) => (((seed * 1103515245 + 12345) >>> 0) % 2 ** 31) % n;

/** The chunks of one simulated hour of typing, each as one save carries it. */
function typedChunks(): CompactOperation[][] {
  const session = simulateWriting('composition', createRandom(42), {
    chars: 60 * 450,
    typist: { medianIkiMs: 75, sigma: 0.35, revision: 0.1 },
    startMs: 0,
  });
  const startedAt = Date.parse('2026-11-28T09:00:00.000Z');
  const { ops, saves } = recordKeys(session.events, startedAt, { saveAfterPauseMs: 400 });
  const chunks: CompactOperation[][] = [];
  let next = 0;
  for (const count of saves) {
    chunks.push(ops.slice(next, next + count).map((op) => toCompact(op, startedAt)));
    next += count;
  }
  return chunks;
}

/**
 * Each question's operations as a page records them. `next` gives one save's chunk, numbered from where the
 * server's count stood, and assumes the save is stored, as the bench checks after.
 */
export function pageOperations(model: OperationsModel = 'typing') {
  const questions = new Map<string, { count: number; length: number; t: number; chunk: number }>();
  const chunks = model === 'typing' ? typedChunks() : [];
  return {
    next(key: string, n: number): SaveOperations {
      const state = questions.get(key) ?? { count: 0, length: 0, t: 0, chunk: pick(n, Math.max(1, chunks.length)) };
      const start = state.count;
      let ops: CompactOperation[];
      if (model === 'typing') {
        // The session's chunks in order, each question from its own place in the hour.
        ops = chunks[state.chunk % chunks.length]!;
        state.chunk++;
      } else {
        ops = Array.from({ length: 5 + pick(n, 16) }, (_v, i) => {
          const word = `${WORDS[pick(n + i, WORDS.length)]!} `;
          const keys = Array.from(word.slice(1), (_c, k) => 80 + pick(n * 31 + i * 7 + k, 170));
          const at = new Date(state.t).toISOString();
          const op: CompactOperation = toCompact(
            { at, from: state.length, to: state.length, insert: word, source: 'typed', keys },
            0,
          );
          state.t += keys.reduce((sum, gap) => sum + gap, 0) + 400 + pick(n + i * 3, 2000);
          state.length += word.length;
          return op;
        });
      }
      state.count += ops.length;
      questions.set(key, state);
      return { start, ops };
    },
    /** How many operations each question has sent, by key. */
    sent: () => new Map([...questions].map(([key, state]) => [key, state.count])),
  };
}
