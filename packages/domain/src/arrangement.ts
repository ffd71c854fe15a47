import type { Pool } from './cohort.ts';

/**
 * One candidate's arrangement of an exam (docs/product.md#cohorts): which questions they get (every question
 * outside a pool, and each pool's draw), in what order, and each MCQ's option order. Fixed at start from a
 * seed kept with the attempt, so the same seed always gives the same arrangement.
 */

/**
 * cyrb53 (bryc, public domain: https://github.com/bryc/code/blob/master/jshash/experimental/cyrb53.js): a
 * fast, well-mixed 53-bit string hash; its low 32 bits seed the generator below.
 */
export function hashSeed(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/**
 * mulberry32 (Tommy Ettinger, public domain; as listed in https://github.com/bryc/code/blob/master/jshash/PRNGs.md):
 * a 32-bit generator returning floats in [0, 1). Not cryptographic: the order only has to differ between
 * candidates and stay fixed for one, and the seed never leaves the server.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform random integer in [0, n). */
const below = (random: () => number, n: number) => Math.floor(random() * n);

/** Fisher–Yates (Durstenfeld): every permutation equally likely. Returns a new array. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = below(random, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `count` of the items drawn without replacement (a partial Fisher–Yates), kept in their original order. */
export function drawn<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = items.map((item, index) => ({ item, index }));
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + below(random, pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool
    .slice(0, n)
    .sort((a, b) => a.index - b.index)
    .map((p) => p.item);
}

export type ArrangeableExam = {
  questions: ReadonlyArray<{ poolId: string | null; type: string; options: readonly string[] }>;
  pools: ReadonlyArray<Pick<Pool, 'id' | 'draw' | 'points'>>;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
};

/** One question as the candidate gets it. */
export type ArrangedItem = {
  /** The question's index in the exam as the creator wrote it. */
  sourceIndex: number;
  /** The pool's points per draw for a drawn question; null keeps the question's own points. */
  poolPoints: number | null;
  /** MCQ with shuffled options: optionOrder[k] is the index in the creator's options of the k-th shown. */
  optionOrder: number[] | null;
};

/**
 * The candidate's arrangement for a seed. A pool's drawn questions take the place of the pool's first
 * question (in the exam's order unless questions are shuffled); with shuffleQuestions the whole list is
 * shuffled; with shuffleOptions each MCQ's options are. A question naming no pool of the exam counts as
 * outside any pool, as questionsPerCandidate counts it.
 */
export function arrangeExam(exam: ArrangeableExam, seed: string): ArrangedItem[] {
  const random = mulberry32(hashSeed(seed));
  const pools = new Map(exam.pools.map((p) => [p.id, p]));
  const members = new Map<string, number[]>();
  exam.questions.forEach((q, i) => {
    if (q.poolId !== null && pools.has(q.poolId)) members.set(q.poolId, [...(members.get(q.poolId) ?? []), i]);
  });
  const picked: Array<{ sourceIndex: number; poolPoints: number | null }> = [];
  exam.questions.forEach((q, i) => {
    const pool = q.poolId === null ? undefined : pools.get(q.poolId);
    if (!pool) {
      picked.push({ sourceIndex: i, poolPoints: null });
      return;
    }
    const ids = members.get(pool.id)!;
    if (ids[0] !== i) return;
    for (const sourceIndex of drawn(ids, pool.draw, random)) picked.push({ sourceIndex, poolPoints: pool.points });
  });
  const ordered = exam.shuffleQuestions ? shuffled(picked, random) : picked;
  return ordered.map((item) => {
    const q = exam.questions[item.sourceIndex]!;
    const optionOrder =
      exam.shuffleOptions && q.type === 'mcq'
        ? shuffled(
            q.options.map((_o, k) => k),
            random,
          )
        : null;
    return { ...item, optionOrder };
  });
}

/** Whether an exam gives each candidate their own arrangement at all. */
export function isArranged(exam: Pick<ArrangeableExam, 'pools' | 'shuffleQuestions' | 'shuffleOptions'>): boolean {
  return exam.shuffleQuestions || exam.shuffleOptions || exam.pools.length > 0;
}

/**
 * The questions in the candidate's arrangement: drawn questions worth the pool's points, options in the
 * candidate's order. Keys are option texts, so they need no remapping.
 */
export function arrangedQuestions<Q extends { points: number; options: string[] }>(
  questions: readonly Q[],
  arrangement: readonly ArrangedItem[],
): Q[] {
  return arrangement.map((item) => {
    const q = questions[item.sourceIndex]!;
    return {
      ...q,
      ...(item.poolPoints !== null ? { points: item.poolPoints } : {}),
      ...(item.optionOrder ? { options: item.optionOrder.map((k) => q.options[k]!) } : {}),
    };
  });
}
