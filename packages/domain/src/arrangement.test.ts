import { describe, expect, it } from 'vitest';
import {
  arrangedQuestions,
  arrangeExam,
  drawn,
  hashSeed,
  isArranged,
  mulberry32,
  shuffled,
  type ArrangeableExam,
} from './arrangement.ts';

const mcq = (options = ['A', 'B', 'C', 'D']) => ({ type: 'mcq', poolId: null, options });
const short = (poolId: string | null = null) => ({ type: 'short-answer', poolId, options: [] as string[] });

const plain = (overrides: Partial<ArrangeableExam> = {}): ArrangeableExam => ({
  questions: [mcq(), short(), short(), short(), mcq(['x', 'y', 'z']), short()],
  pools: [],
  shuffleQuestions: false,
  shuffleOptions: false,
  ...overrides,
});

describe('the generator', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = mulberry32(hashSeed('attempt-1'));
    const b = mulberry32(hashSeed('attempt-1'));
    const c = mulberry32(hashSeed('attempt-2'));
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect([c(), c(), c()]).not.toEqual(first);
    for (const x of first) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe('arrangeExam', () => {
  it('keeps the exam as written when nothing is shuffled and there are no pools', () => {
    const items = arrangeExam(plain(), 'seed');
    expect(items.map((i) => i.sourceIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(items.every((i) => i.optionOrder === null && i.poolPoints === null)).toBe(true);
    expect(isArranged(plain())).toBe(false);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const exam = plain({ shuffleQuestions: true, shuffleOptions: true });
    expect(arrangeExam(exam, 'attempt-a')).toEqual(arrangeExam(exam, 'attempt-a'));
    const orders = new Set(
      Array.from({ length: 20 }, (_v, k) =>
        arrangeExam(exam, `attempt-${k}`)
          .map((i) => i.sourceIndex)
          .join(),
      ),
    );
    expect(orders.size).toBeGreaterThan(10);
  });

  it('shuffles the questions into a permutation and each MCQ option order into a permutation of its options', () => {
    const exam = plain({ shuffleQuestions: true, shuffleOptions: true });
    for (let k = 0; k < 50; k++) {
      const items = arrangeExam(exam, `s${k}`);
      expect(items.map((i) => i.sourceIndex).sort()).toEqual([0, 1, 2, 3, 4, 5]);
      for (const item of items) {
        const q = exam.questions[item.sourceIndex]!;
        if (q.type !== 'mcq') expect(item.optionOrder).toBeNull();
        else expect([...item.optionOrder!].sort()).toEqual(q.options.map((_o, i) => i));
      }
    }
  });

  it('draws exactly N of each pool, worth the pool’s points, where the pool’s first question sits', () => {
    const exam = plain({
      questions: [short(), short('p'), short('p'), short(), short('p'), short('q'), short('q'), short('p')],
      pools: [
        { id: 'p', draw: 2, points: 3 },
        { id: 'q', draw: 1, points: 0.5 },
      ],
    });
    for (let k = 0; k < 100; k++) {
      const items = arrangeExam(exam, `draw-${k}`);
      expect(items).toHaveLength(5);
      expect(items[0]).toMatchObject({ sourceIndex: 0, poolPoints: null });
      const fromP = items.slice(1, 3);
      expect(fromP.every((i) => [1, 2, 4, 7].includes(i.sourceIndex) && i.poolPoints === 3)).toBe(true);
      expect(fromP[0]!.sourceIndex).toBeLessThan(fromP[1]!.sourceIndex);
      expect(items[3]).toMatchObject({ sourceIndex: 3, poolPoints: null });
      expect([5, 6]).toContain(items[4]!.sourceIndex);
      expect(items[4]!.poolPoints).toBe(0.5);
    }
  });

  it('treats a question naming no pool of the exam as outside any pool', () => {
    const items = arrangeExam(plain({ questions: [short('gone'), short()] }), 'x');
    expect(items.map((i) => i.sourceIndex)).toEqual([0, 1]);
  });

  it('spreads question orders and pool draws roughly uniformly over many seeds', () => {
    const runs = 6000;
    // Where question 0 lands among 4 shuffled questions: each position about a quarter of the time.
    const exam = plain({ questions: [short(), short(), short(), short()], shuffleQuestions: true });
    const positions = [0, 0, 0, 0];
    // Which of 4 pool questions is drawn (draw 1): each about a quarter of the time.
    const pooled = plain({
      questions: [short('p'), short('p'), short('p'), short('p')],
      pools: [{ id: 'p', draw: 1, points: 1 }],
    });
    const draws = [0, 0, 0, 0];
    for (let k = 0; k < runs; k++) {
      positions[arrangeExam(exam, `u${k}`).findIndex((i) => i.sourceIndex === 0)]!++;
      draws[arrangeExam(pooled, `u${k}`)[0]!.sourceIndex]!++;
    }
    // Chi-square with 3 degrees of freedom: 16.27 is its 0.1% critical value.
    const chi = (counts: number[]) => counts.reduce((s, c) => s + (c - runs / 4) ** 2 / (runs / 4), 0);
    expect(chi(positions)).toBeLessThan(16.27);
    expect(chi(draws)).toBeLessThan(16.27);
  });
});

describe('arrangeExam without sections', () => {
  // Attempts started before sections existed keep only their seed: the same seed must keep giving them the same
  // questions, order and option orders. These outputs were taken from the code before sections were added.
  const exam = plain({
    questions: [
      mcq(),
      short('p'),
      short(),
      short('p'),
      mcq(['x', 'y', 'z']),
      short('p'),
      short('q'),
      short('q'),
      short(),
    ],
    pools: [
      { id: 'p', draw: 2, points: 3 },
      { id: 'q', draw: 1, points: 0.5 },
    ],
    shuffleQuestions: true,
    shuffleOptions: true,
  });
  const item = (sourceIndex: number, poolPoints: number | null, optionOrder: number[] | null) => ({
    sourceIndex,
    poolPoints,
    optionOrder,
    sectionIndex: 0,
  });

  it('gives exactly the arrangement it gave before sections existed', () => {
    expect(arrangeExam(exam, 'attempt-1')).toEqual([
      item(0, null, [1, 0, 2, 3]),
      item(1, 3, null),
      item(7, 0.5, null),
      item(4, null, [2, 1, 0]),
      item(2, null, null),
      item(3, 3, null),
      item(8, null, null),
    ]);
    expect(arrangeExam(exam, '01HZX3Y9K2M4N6P8Q0R2S4T6V8')).toEqual([
      item(3, 3, null),
      item(0, null, [1, 2, 0, 3]),
      item(8, null, null),
      item(7, 0.5, null),
      item(5, 3, null),
      item(2, null, null),
      item(4, null, [1, 2, 0]),
    ]);
  });

  it('is the same with an empty section list', () => {
    expect(arrangeExam({ ...exam, sections: [] }, 'attempt-1')).toEqual(arrangeExam(exam, 'attempt-1'));
  });
});

describe('arrangeExam with sections', () => {
  const inSection = <Q extends object>(q: Q, sectionId: string | null) => ({ ...q, sectionId });
  const sections = [{ id: 'unaided' }, { id: 'aided' }];

  it('keeps each section’s questions together, sections in order, even when written interleaved', () => {
    const exam = plain({
      questions: [
        inSection(short(), 'aided'),
        inSection(short(), 'unaided'),
        inSection(short(), 'aided'),
        inSection(short(), null),
        inSection(short(), 'unaided'),
      ],
      sections,
    });
    const items = arrangeExam(exam, 'seed');
    expect(items.map((i) => i.sourceIndex)).toEqual([1, 3, 4, 0, 2]);
    expect(items.map((i) => i.sectionIndex)).toEqual([0, 0, 0, 1, 1]);
    expect(isArranged(exam)).toBe(true);
  });

  it('needs no arrangement when the sections are written in order and nothing is shuffled or drawn', () => {
    const exam = plain({
      questions: [inSection(short(), 'unaided'), inSection(short(), null), inSection(short(), 'aided')],
      sections,
    });
    expect(isArranged(exam)).toBe(false);
    expect(arrangeExam(exam, 'x').map((i) => i.sourceIndex)).toEqual([0, 1, 2]);
  });

  it('shuffles within each section only, and draws each pool within its section', () => {
    const exam = plain({
      questions: [
        inSection(mcq(), 'aided'),
        inSection(short(), 'unaided'),
        inSection(short('p'), 'aided'),
        inSection(short(), 'unaided'),
        inSection(short('p'), 'aided'),
        inSection(short('p'), 'aided'),
        inSection(short('u'), 'unaided'),
        inSection(short('u'), 'unaided'),
      ],
      pools: [
        { id: 'p', draw: 2, points: 2 },
        { id: 'u', draw: 1, points: 1 },
      ],
      shuffleQuestions: true,
      shuffleOptions: true,
      sections,
    });
    const firstPositions = new Set<string>();
    for (let k = 0; k < 200; k++) {
      const items = arrangeExam(exam, `s${k}`);
      expect(items).toHaveLength(6);
      const unaided = items.slice(0, 3);
      const aided = items.slice(3);
      expect(unaided.every((i) => [1, 3, 6, 7].includes(i.sourceIndex) && i.sectionIndex === 0)).toBe(true);
      expect(unaided.filter((i) => i.poolPoints === 1)).toHaveLength(1);
      expect(aided.every((i) => [0, 2, 4, 5].includes(i.sourceIndex) && i.sectionIndex === 1)).toBe(true);
      expect(aided.filter((i) => i.poolPoints === 2)).toHaveLength(2);
      const question0 = items.find((i) => i.sourceIndex === 0)!;
      expect([...question0.optionOrder!].sort()).toEqual([0, 1, 2, 3]);
      firstPositions.add(items.map((i) => i.sourceIndex).join());
      expect(arrangeExam(exam, `s${k}`)).toEqual(items);
    }
    expect(firstPositions.size).toBeGreaterThan(20);
  });
});

describe('shuffled and drawn', () => {
  it('leave the input alone and return permutations / subsets of it', () => {
    const input = [1, 2, 3, 4, 5];
    const random = mulberry32(7);
    expect([...shuffled(input, random)].sort()).toEqual(input);
    const some = drawn(input, 3, random);
    expect(some).toHaveLength(3);
    expect(new Set(some).size).toBe(3);
    expect(some).toEqual([...some].sort());
    expect(input).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('arrangedQuestions', () => {
  it('orders the questions, sets pool points and reorders options without touching keys', () => {
    const questions = [
      { id: 'a', points: 1, options: ['x', 'y', 'z'], correctAnswer: 'y' },
      { id: 'b', points: 2, options: [] },
    ];
    const result = arrangedQuestions(questions, [
      { sourceIndex: 1, poolPoints: 5, optionOrder: null, sectionIndex: 0 },
      { sourceIndex: 0, poolPoints: null, optionOrder: [2, 0, 1], sectionIndex: 0 },
    ]);
    expect(result).toEqual([
      { id: 'b', points: 5, options: [] },
      { id: 'a', points: 1, options: ['z', 'x', 'y'], correctAnswer: 'y' },
    ]);
  });
});
