import { describe, expect, it } from 'vitest';
import { histogram, itemParameters, median, niceWidth, probabilityRight } from './chart-data.ts';

describe('chart data', () => {
  it('bins values into equal bands, the top edge into the last band', () => {
    const bins = histogram([0, 9.9, 10, 55, 100], 0, 10, 10);
    expect(bins.map((b) => b.count)).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(bins[5]).toEqual({ from: 50, to: 60, mid: 55, count: 1 });
  });

  it('picks a round bin width (1, 2 or 5 × 10ⁿ) that gives at most the target number of bins', () => {
    expect(niceWidth(90, 10)).toBe(10);
    expect(niceWidth(47, 10)).toBe(5);
    expect(niceWidth(13, 10)).toBe(2);
    expect(niceWidth(0.7, 10)).toBe(0.1);
  });

  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('gives even odds at θ = b and follows the 2PL slope', () => {
    expect(probabilityRight(0.4, 1.7, 0.4)).toBe(0.5);
    // σ(1.5 · (1 − 0)) = 1 / (1 + e^−1.5) ≈ 0.8176
    expect(probabilityRight(1, 1.5, 0)).toBeCloseTo(0.8176, 4);
  });

  it("reads an item's parameters from the chosen model, none when the model has no estimate", () => {
    const item = {
      raschDifficulty: -0.5,
      twoPl: { discrimination: 1.2, difficulty: 0.3, discriminationSe: null, difficultySe: null },
    } as Parameters<typeof itemParameters>[0];
    expect(itemParameters(item, 'rasch')).toEqual({ a: 1, b: -0.5 });
    expect(itemParameters(item, '2pl')).toEqual({ a: 1.2, b: 0.3 });
    expect(itemParameters({ ...item, twoPl: null }, '2pl')).toBeNull();
  });
});
