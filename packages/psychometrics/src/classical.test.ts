import { describe, expect, it } from 'vitest';
import { computeClassicalStatistics, REASONS } from './classical.ts';

/*
 * Worked example, 5 candidates × 3 items (marks 0/1):
 *        i1 i2 i3 | T
 *   A     1  1  1 | 3
 *   B     1  1  0 | 2
 *   C     1  0  0 | 1
 *   D     0  1  0 | 1
 *   E     0  0  0 | 0
 * Totals: mean 7/5 = 1.4, median 1. Deviations 1.6, 0.6, −0.4, −0.4, −1.4.
 *   Σd² = 5.2 → k2 = 5.2/4 = 1.3, SD = √1.3 = 1.140175
 *   Σd³ = 1.44 → m3 = 0.288; k3 = 25·0.288/(4·3) = 0.6; skewness = 0.6/1.3^1.5 = 0.404796
 *   Σd⁴ = 10.576 → m4 = 2.1152, m2 = 1.04; k4 = 25·(6·2.1152 − 3·4·1.0816)/(4·3·2) = −0.3;
 *   kurtosis = −0.3/1.69 = −0.177515
 * Item variances (n−1): i1 = (3·0.16 + 2·0.36)/4 = 0.3, i2 = 0.3, i3 = (0.64 + 4·0.04)/4 = 0.2; Σ = 0.8
 *   alpha = 3/2 · (1 − 0.8/1.3) = 0.576923; error ratio = 100·√0.423077 = 65.0444%;
 *   standard error = √(1.3 · 0.423077) = √0.55 = 0.741620
 * Item 1: rest = 2,1,0,1,0 (mean 0.8, var 2.8/4 = 0.7); Cov(x, rest) = 0.6/4 = 0.15
 *   DI = 100·0.15/√(0.3·0.7) = 32.7327; sorted pairs (0,0)(0,0)(1,1)(1,1)(1,2) → covmax = 1.6/4 = 0.4,
 *   DE = 37.5; Cov(x, T) = 0.3 + 0.15 = 0.45
 * Item 2: rest = 2,1,1,0,0 — same moments as item 1: DI 32.7327, DE 37.5, Cov(x, T) = 0.45
 * Item 3: rest = 2,2,1,1,0 (mean 1.2, var 0.7); Cov(x, rest) = 0.8/4 = 0.2; DI = 20/√0.14 = 53.4522;
 *   covmax = 0.8/4 = 0.2 → DE = 100; Cov(x, T) = 0.4
 * Effective weights: √0.45 = 0.670820 (×2), √0.4 = 0.632456, Σ = 1.974096 → 33.9811, 33.9811, 32.0377 (sum 100)
 */
const WORKED = [
  [1, 1, 1],
  [1, 1, 0],
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 0],
];

describe('computeClassicalStatistics', () => {
  it('matches the hand-worked test statistics for the 5×3 example', () => {
    const { test, totals } = computeClassicalStatistics(WORKED, 3);
    expect(Array.from(totals)).toEqual([3, 2, 1, 1, 0]);
    expect(test.mean.value).toBeCloseTo(1.4, 10);
    expect(test.median.value).toBe(1);
    expect(test.sd.value).toBeCloseTo(1.140175, 6);
    expect(test.skewness.value).toBeCloseTo(0.404796, 6);
    expect(test.kurtosis.value).toBeCloseTo(-0.177515, 6);
    expect(test.cronbachAlpha.value).toBeCloseTo(0.576923, 6);
    expect(test.errorRatio.value).toBeCloseTo(65.0444, 4);
    expect(test.standardError.value).toBeCloseTo(0.74162, 5);
  });

  it('matches the hand-worked item statistics for the 5×3 example', () => {
    const { items } = computeClassicalStatistics(WORKED, 3, [0.25, 0, 0.5]);
    const [i1, i2, i3] = items;
    expect(i1!.facility.value).toBeCloseTo(0.6, 10);
    expect(i3!.facility.value).toBeCloseTo(0.2, 10);
    expect(i1!.sd.value).toBeCloseTo(Math.sqrt(0.3), 10);
    expect(i3!.sd.value).toBeCloseTo(Math.sqrt(0.2), 10);
    expect(i1!.discriminationIndex.value).toBeCloseTo(32.7327, 4);
    expect(i2!.discriminationIndex.value).toBeCloseTo(32.7327, 4);
    expect(i3!.discriminationIndex.value).toBeCloseTo(53.4522, 4);
    expect(i1!.discriminativeEfficiency.value).toBeCloseTo(37.5, 8);
    expect(i3!.discriminativeEfficiency.value).toBeCloseTo(100, 8);
    expect(i1!.effectiveWeight.value).toBeCloseTo(33.9811, 4);
    expect(i2!.effectiveWeight.value).toBeCloseTo(33.9811, 4);
    expect(i3!.effectiveWeight.value).toBeCloseTo(32.0377, 4);
    expect(items.map((i) => i.randomGuessScore)).toEqual([0.25, 0, 0.5]);
  });

  it('averages the two middle totals for the median when the count is even', () => {
    const { test } = computeClassicalStatistics(WORKED.slice(0, 4), 3);
    // Totals 3, 2, 1, 1 → median (1 + 2) / 2.
    expect(test.median.value).toBe(1.5);
  });

  it('returns null with reasons instead of numbers when nobody has submitted', () => {
    const { test, items } = computeClassicalStatistics([], 2);
    expect(test.mean).toEqual({ value: null, reason: REASONS.noCandidates });
    expect(test.cronbachAlpha.value).toBeNull();
    expect(items[0]!.facility).toEqual({ value: null, reason: REASONS.noGraded });
  });

  it('returns null spread statistics with reasons when there is one candidate', () => {
    const { test, items } = computeClassicalStatistics([[1, 0]], 2);
    expect(test.mean.value).toBe(1);
    expect(test.sd).toEqual({ value: null, reason: REASONS.fewCandidates(2) });
    expect(test.skewness.reason).toBe(REASONS.fewCandidates(3));
    expect(test.kurtosis.reason).toBe(REASONS.fewCandidates(4));
    expect(test.cronbachAlpha.reason).toBe(REASONS.fewCandidates(2));
    expect(items[0]!.facility.value).toBe(1);
    expect(items[0]!.discriminationIndex.reason).toBe(REASONS.fewGraded);
  });

  it('returns null with a reason when every candidate has the same total', () => {
    const { test } = computeClassicalStatistics(
      [
        [1, 0],
        [0, 1],
        [1, 0],
        [0, 1],
      ],
      2,
    );
    expect(test.sd.value).toBe(0);
    for (const key of ['skewness', 'kurtosis', 'cronbachAlpha', 'errorRatio', 'standardError'] as const) {
      expect(test[key]).toEqual({ value: null, reason: REASONS.sameTotal });
    }
    expect(Object.values(test).some((v) => typeof v === 'object' && Number.isNaN(v.value))).toBe(false);
  });

  it('returns a null discrimination with a reason when everyone answers an item the same way', () => {
    const { items } = computeClassicalStatistics(
      [
        [1, 1],
        [1, 0],
        [1, 1],
      ],
      2,
    );
    expect(items[0]!.facility.value).toBe(1);
    expect(items[0]!.sd.value).toBe(0);
    expect(items[0]!.discriminationIndex).toEqual({ value: null, reason: REASONS.sameItemMark });
    expect(items[0]!.discriminativeEfficiency).toEqual({ value: null, reason: REASONS.sameItemMark });
  });

  it('gives no effective weight to an item that co-varies negatively with the total', () => {
    // Item 3: x = 0,0,1,0 (mean 0.25), T = 2,2,1,0 (mean 1.25): ΣdxdT = −0.25 < 0.
    const { items } = computeClassicalStatistics(
      [
        [1, 1, 0],
        [1, 1, 0],
        [0, 0, 1],
        [0, 0, 0],
      ],
      3,
    );
    expect(items[2]!.effectiveWeight).toEqual({ value: null, reason: REASONS.negativeCovariance });
    expect(items[0]!.effectiveWeight.value! + items[1]!.effectiveWeight.value!).toBeCloseTo(100, 10);
  });

  it('excludes pending marks from item statistics and counts them as 0 in totals', () => {
    const { items, totals, test } = computeClassicalStatistics(
      [
        [1, null],
        [0, 1],
        [1, 1],
      ],
      2,
    );
    expect(Array.from(totals)).toEqual([1, 1, 2]);
    expect(items[0]!.graded).toBe(3);
    expect(items[0]!.facility.value).toBeCloseTo(2 / 3, 10);
    expect(items[1]!.graded).toBe(2);
    expect(items[1]!.facility.value).toBe(1);
    expect(test.mean.value).toBeCloseTo(4 / 3, 10);
  });
});
