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
      { sourceIndex: 1, poolPoints: 5, optionOrder: null },
      { sourceIndex: 0, poolPoints: null, optionOrder: [2, 0, 1] },
    ]);
    expect(result).toEqual([
      { id: 'b', points: 5, options: [] },
      { id: 'a', points: 1, options: ['z', 'x', 'y'], correctAnswer: 'y' },
    ]);
  });
});
