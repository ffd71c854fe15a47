import { describe, expect, it } from 'vitest';
import { describeGaps, quantile, testGaps } from './aided-gap.ts';

describe('testGaps', () => {
  it('scales by the cohort spread left after the candidate’s own error', () => {
    // Cohort gap N(0, 1); estimate 1.2 with posterior SD 0.6: z = 1.2 / √(1 − 0.36) = 1.2 / 0.8 = 1.5.
    const [test] = testGaps([{ estimate: 1.2, se: 0.6 }], 0, 1);
    expect(test!.z).toBeCloseTo(1.5, 12);
    expect(test!.p).toBeCloseTo(0.1336, 4);
  });

  it('flags by Benjamini–Hochberg at q = 0.05 (hand-worked)', () => {
    // Cohort N(0, 1), SE 0 so z = estimate. Two-sided p: z 4 → 6.3e-5, 3 → 0.0027, −2.5 → 0.0124, 0.5 → 0.617,
    // 0 → 1. Sorted against i·q/n = 0.01, 0.02, 0.03, 0.04, 0.05: the first three pass (0.0124 ≤ 0.03), the
    // fourth does not (0.617 > 0.04), so the largest passing rank is 3 and those three are flagged.
    const gaps = [4, 3, 0.5, -2.5, 0].map((estimate) => ({ estimate, se: 0 }));
    const tests = testGaps([...gaps, null], 0, 1);
    expect(tests.map((t) => t?.flag ?? null)).toEqual(['above', 'above', null, 'below', null, null]);
    expect(tests[5]).toBeNull();
  });

  it('finds no evidence when the candidate’s error is as large as the cohort’s spread', () => {
    expect(testGaps([{ estimate: 3, se: 1 }], 0, 1)[0]).toEqual({ z: 0, p: 1, flag: null });
  });
});

describe('describeGaps', () => {
  it('gives quantiles of type 7 (R’s default), the SD and the empirical reliability', () => {
    // quantile(c(1, 2, 3, 4), 0.25) in R is 1.75: h = 3 × 0.25 = 0.75 → 1 + 0.75 × (2 − 1).
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    // Estimates −1 and 1: variance 2 (n − 1); error variances 1 and 1: reliability 2 / (2 + 1).
    const described = describeGaps([-1, 1], [1, 1], [null, null], 0, 1.5);
    expect(described.estimates!.sd).toBeCloseTo(Math.SQRT2, 12);
    expect(described.reliability).toBeCloseTo(2 / 3, 12);
    expect(described.model).toEqual({ mean: 0, sd: 1.5 });
    expect(describeGaps([], [], [], 0, 1)).toMatchObject({ estimates: null, reliability: null });
  });
});
