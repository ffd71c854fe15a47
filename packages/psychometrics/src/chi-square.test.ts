import { describe, expect, it } from 'vitest';
import { chiSquareSurvival, gammaQ, logGamma } from './chi-square.ts';

describe('logGamma', () => {
  it('matches factorials and Γ(1/2) = √π', () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 11);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
    expect(logGamma(0.25)).toBeCloseTo(Math.log(3.625609908221908), 12);
  });
});

describe('chiSquareSurvival', () => {
  it('gives the textbook 5% critical values', () => {
    // Critical values from any χ² table (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.4).
    expect(chiSquareSurvival(3.841459, 1)).toBeCloseTo(0.05, 7);
    expect(chiSquareSurvival(9.487729, 4)).toBeCloseTo(0.05, 7);
    expect(chiSquareSurvival(18.307038, 10)).toBeCloseTo(0.05, 7);
    expect(chiSquareSurvival(43.772972, 30)).toBeCloseTo(0.05, 7);
    expect(chiSquareSurvival(6.634897, 1)).toBeCloseTo(0.01, 7);
  });

  it('matches the closed forms for 2 and 4 degrees of freedom on both sides of the series/fraction switch', () => {
    for (const x of [0.01, 0.57, 1.5, 3, 7, 25, 80]) {
      expect(chiSquareSurvival(x, 2)).toBeCloseTo(Math.exp(-x / 2), 12);
      expect(chiSquareSurvival(x, 4)).toBeCloseTo(Math.exp(-x / 2) * (1 + x / 2), 12);
    }
  });

  it('is 1 at zero and rejects impossible arguments', () => {
    expect(chiSquareSurvival(0, 3)).toBe(1);
    expect(() => chiSquareSurvival(1, 0)).toThrow(RangeError);
    expect(() => chiSquareSurvival(Number.NaN, 2)).toThrow(RangeError);
    expect(() => gammaQ(-1, 2)).toThrow(RangeError);
  });
});
