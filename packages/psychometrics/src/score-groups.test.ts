import { describe, expect, it } from 'vitest';
import { abilityOrder, scoreGroups } from './score-groups.ts';

describe('scoreGroups', () => {
  it('cuts the candidates with a mark and an ability into up to 10 quantile groups by ability', () => {
    const thetas = Array.from({ length: 100 }, (_, i) => (i - 50) / 10);
    // Right from the 40th candidate up, plus mark ½ counts as right.
    const marks = thetas.map((_, i) => (i >= 40 ? 1 : i === 35 ? 0.5 : 0));
    const groups = scoreGroups(marks, thetas);
    expect(groups).toHaveLength(10);
    expect(groups.map((g) => g.n)).toEqual(Array(10).fill(10));
    expect(groups[0]!.theta).toBeCloseTo(-4.55, 12);
    expect(groups.map((g) => g.observed)).toEqual([0, 0, 0, 0.1, 1, 1, 1, 1, 1, 1]);
  });

  it('makes fewer groups of at least 5 when there are few candidates, one below that', () => {
    const thetas = Array.from({ length: 23 }, (_, i) => i);
    expect(scoreGroups(Array(23).fill(1), thetas).map((g) => g.n)).toEqual([6, 6, 5, 6]);
    expect(scoreGroups([1, 0, 1], [0, 1, 2])).toEqual([{ theta: 1, n: 3, observed: 2 / 3 }]);
  });

  it('skips candidates without a mark (not drawn, pending) or ability, and keeps equal abilities together', () => {
    const thetas = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, null];
    const marks = [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, null, 1];
    // 10 candidates make 2 groups; the cut after the 5th moves past the sixth θ = 0.
    expect(scoreGroups(marks, thetas)).toEqual([
      { theta: 0, n: 6, observed: 0.5 },
      { theta: 1, n: 4, observed: 1 },
    ]);
    expect(scoreGroups([1, 1], [null, null])).toEqual([]);
  });

  it('takes an ability order sorted once for all items', () => {
    const thetas = [0.3, null, -1, 0.3, 2];
    expect(abilityOrder(thetas)).toEqual([2, 0, 3, 4]);
    const marks = [1, 1, 0, 0, 1];
    expect(scoreGroups(marks, thetas, abilityOrder(thetas))).toEqual(scoreGroups(marks, thetas));
  });
});
