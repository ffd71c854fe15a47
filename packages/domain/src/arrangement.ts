import type { Pool } from './cohort.ts';
import { type Section, sectionIndexOf } from './sections.ts';

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
  questions: ReadonlyArray<{
    poolId: string | null;
    type: string;
    options: readonly string[];
    sectionId?: string | null;
  }>;
  pools: ReadonlyArray<Pick<Pool, 'id' | 'draw' | 'points'>>;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  /** The exam's sections (sections.ts); absent or empty for an undivided exam. */
  sections?: ReadonlyArray<Pick<Section, 'id'>>;
};

/** One question as the candidate gets it. */
export type ArrangedItem = {
  /** The question's index in the exam as the creator wrote it. */
  sourceIndex: number;
  /** The pool's points per draw for a drawn question; null keeps the question's own points. */
  poolPoints: number | null;
  /** MCQ with shuffled options: optionOrder[k] is the index in the creator's options of the k-th shown. */
  optionOrder: number[] | null;
  /** The index of the question's section (sections.ts); 0 for an undivided exam. */
  sectionIndex: number;
};

type Picked = { sourceIndex: number; poolPoints: number | null };

/**
 * The questions a candidate gets of `indices` (exam indices in the creator's order): every question outside a
 * pool, and each pool's draw where the pool's first question among them sits. Pools are drawn among `indices`
 * only, so with sections a pool is drawn within its section (sectionIssues keeps a pool in one section anyway).
 */
function pick(exam: ArrangeableExam, indices: readonly number[], random: () => number): Picked[] {
  const pools = new Map(exam.pools.map((p) => [p.id, p]));
  const members = new Map<string, number[]>();
  for (const i of indices) {
    const q = exam.questions[i]!;
    if (q.poolId !== null && pools.has(q.poolId)) members.set(q.poolId, [...(members.get(q.poolId) ?? []), i]);
  }
  const picked: Picked[] = [];
  for (const i of indices) {
    const q = exam.questions[i]!;
    const pool = q.poolId === null ? undefined : pools.get(q.poolId);
    if (!pool) {
      picked.push({ sourceIndex: i, poolPoints: null });
      continue;
    }
    const ids = members.get(pool.id)!;
    if (ids[0] !== i) continue;
    for (const sourceIndex of drawn(ids, pool.draw, random)) picked.push({ sourceIndex, poolPoints: pool.points });
  }
  return picked;
}

/**
 * The candidate's arrangement for a seed. A pool's drawn questions take the place of the pool's first
 * question (in the exam's order unless questions are shuffled); with shuffleQuestions the whole list is
 * shuffled; with shuffleOptions each MCQ's options are. A question naming no pool of the exam counts as
 * outside any pool, as questionsPerCandidate counts it.
 *
 * With sections the list is the sections in order, each holding its own questions (a question naming no
 * section, or an unknown one, is in the first): pools are drawn and questions shuffled within their section,
 * so a candidate who has reached section k holds a prefix of their list and indices never move. Without
 * sections the generator is drawn from in exactly the order it always was, so an attempt started before
 * sections existed keeps its arrangement for its seed (arrangement.test.ts pins it).
 */
export function arrangeExam(exam: ArrangeableExam, seed: string): ArrangedItem[] {
  const random = mulberry32(hashSeed(seed));
  const sections = exam.sections ?? [];
  const all = exam.questions.map((_q, i) => i);
  let ordered: Array<Picked & { sectionIndex: number }>;
  if (sections.length === 0) {
    const picked = pick(exam, all, random);
    ordered = (exam.shuffleQuestions ? shuffled(picked, random) : picked).map((p) => ({ ...p, sectionIndex: 0 }));
  } else {
    ordered = sections.flatMap((_s, sectionIndex) => {
      const picked = pick(
        exam,
        all.filter((i) => sectionIndexOf(exam.questions[i]!, sections) === sectionIndex),
        random,
      );
      return (exam.shuffleQuestions ? shuffled(picked, random) : picked).map((p) => ({ ...p, sectionIndex }));
    });
  }
  return ordered.map((item) => {
    const q = exam.questions[item.sourceIndex]!;
    const optionOrder =
      exam.shuffleOptions && q.type === 'mcq'
        ? shuffled(
            q.options.map((_o, k) => k),
            random,
          )
        : null;
    return { sourceIndex: item.sourceIndex, poolPoints: item.poolPoints, optionOrder, sectionIndex: item.sectionIndex };
  });
}

/**
 * Whether an exam gives each candidate their own arrangement at all: it shuffles, draws from pools, or has
 * sections whose questions the creator did not write grouped in section order (the candidate's list groups them).
 */
export function isArranged(
  exam: Pick<ArrangeableExam, 'pools' | 'shuffleQuestions' | 'shuffleOptions' | 'sections'> & {
    questions?: ArrangeableExam['questions'];
  },
): boolean {
  return exam.shuffleQuestions || exam.shuffleOptions || exam.pools.length > 0 || !groupedBySection(exam);
}

/** Whether the questions as written already run through the sections in order. */
function groupedBySection(exam: { sections?: ArrangeableExam['sections']; questions?: ArrangeableExam['questions'] }) {
  const sections = exam.sections ?? [];
  if (sections.length === 0 || !exam.questions) return true;
  let last = 0;
  for (const q of exam.questions) {
    const index = sectionIndexOf(q, sections);
    if (index < last) return false;
    last = index;
  }
  return true;
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
