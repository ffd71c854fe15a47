import { describe, expect, it } from 'vitest';
import {
  AGREEMENT_REASONS,
  bootstrapWeightedKappa,
  computeAgreement,
  quadraticWeightedKappa,
  type RatingPair,
} from './agreement.ts';

const pairsOf = (suggested: readonly number[], human: readonly number[]): RatingPair[] =>
  suggested.map((s, i) => ({ suggested: s, human: human[i]! }));

const repeat = (pairs: RatingPair[], times: number): RatingPair[] => Array.from({ length: times }, () => pairs).flat();

const cells = (count: number, suggested: number, human: number): RatingPair[] =>
  Array.from({ length: count }, () => ({ suggested, human }));

/*
 * The textbook 2 × 2 example of Cohen's κ: 50 grant proposals read by two readers (Wikipedia, "Cohen's kappa",
 * section "Simple example", https://en.wikipedia.org/wiki/Cohen%27s_kappa; also worked at
 * http://howcodex.com/statistics/cohen_kappa_coefficient.htm). Yes = 1 point, no = 0; AI/human counts:
 * yes/yes 20, yes/no 5, no/yes 10, no/no 15.
 *   po = 35/50 = 0.70; the AI says yes 25/50 = 0.5, the human 30/50 = 0.6;
 *   pe = 0.5·0.6 + 0.5·0.4 = 0.50; κ = (0.70 − 0.50)/(1 − 0.50) = 0.40.
 * With two categories the quadratic weights are 0 on the diagonal and 1 off it, so κw = κ = 0.40.
 * Mean absolute difference = 15/50 = 0.30.
 */
const YES_NO = [...cells(20, 1, 1), ...cells(5, 1, 0), ...cells(10, 0, 1), ...cells(15, 0, 0)];

/*
 * Maple help, EssayTools[QuadraticWeightedKappa] (https://www.maplesoft.com/support/help/Maple/view.aspx?path=
 * EssayTools/QuadraticWeightedKappa), its two examples with their published outputs:
 *   1. [9,7,8,7,6,8,3,5,10] vs [8,8,6,6,7,6,1,4,8] → 0.758620689655172
 *   2. [9,7,8,7,6,8,3,5,10] vs [3,5,6,6,7,6,1,4,8] → 0.438095238095238
 * By hand: with weights (xᵢ − xⱼ)² the expected disagreement Σ wᵢⱼ Eᵢⱼ is the mean of (a − b)² over all n²
 * pairings, i.e. var(a) + var(b) + (ā − b̄)² (population variances), and the observed one is mean((a − b)²).
 *   1. ā = 7, b̄ = 6; var(a) = 36/9 = 4, var(b) = 42/9; observed = (1+1+4+1+1+4+4+1+4)/9 = 21/9;
 *      expected = 4 + 42/9 + 1 = 87/9; κw = 1 − 21/87 = 66/87 = 0.758621.
 *   2. b̄ = 46/9, var(b) = 272/9 − (46/9)² = 332/81; observed = (36+4+4+1+1+4+4+1+4)/9 = 531/81;
 *      expected = 324/81 + 332/81 + (17/9)² = 945/81; κw = 1 − 531/945 = 0.438095.
 * Neither rater gives 2 points, so the categories are not evenly spaced: these check the points-valued weights.
 */
const MAPLE_A = [9, 7, 8, 7, 6, 8, 3, 5, 10];
const MAPLE_1 = pairsOf(MAPLE_A, [8, 8, 6, 6, 7, 6, 1, 4, 8]);
const MAPLE_2 = pairsOf(MAPLE_A, [3, 5, 6, 6, 7, 6, 1, 4, 8]);

/*
 * Lodestar's documentation of its kappa weighting (https://github.com/CyrilB1531/lodestar/wiki/Metrics-kappaweighting):
 * rater [1,1,2,2,3,3,1,3], model [1,3,2,1,3,2,1,3] → unweighted 0.4285…, quadratic 0.5. By hand:
 *   table (rows rater, columns model) [[2,0,1],[1,1,0],[0,1,2]]; po = 5/8; marginals 3,2,3 both ways;
 *   pe = (9 + 4 + 9)/64 = 22/64; κ = (40/64 − 22/64)/(42/64) = 18/42 = 0.428571.
 *   observed Σd² = 4 + 1 + 1 = 6 over 8; expected Σ rᵢcⱼ(i − j)²/64 = (4·6·1 + 2·9·4)/64 = 96/64;
 *   κw = 1 − 0.75/1.5 = 0.5.
 */
const LODESTAR = pairsOf([1, 1, 2, 2, 3, 3, 1, 3], [1, 3, 2, 1, 3, 2, 1, 3]);

describe('computeAgreement', () => {
  it('matches the 2 × 2 worked example: po 0.70, pe 0.50, κ 0.40', () => {
    const result = computeAgreement(YES_NO);
    expect(result.n).toBe(50);
    expect(result.exactAgreement).toBeCloseTo(0.7, 3);
    expect(result.kappa).toBeCloseTo(0.4, 3);
    expect(result.weightedKappa).toBeCloseTo(0.4, 3);
    expect(result.meanAbsoluteDifference).toBeCloseTo(0.3, 3);
    expect(result.notes).toEqual({});
  });

  it("matches Maple's published quadratic weighted κ examples", () => {
    expect(computeAgreement(MAPLE_1).weightedKappa).toBeCloseTo(0.758620689655172, 3);
    expect(computeAgreement(MAPLE_2).weightedKappa).toBeCloseTo(0.438095238095238, 3);
    expect(computeAgreement(MAPLE_1).weightedKappa).toBeCloseTo(66 / 87, 12);
  });

  it("matches Lodestar's documented unweighted and quadratic κ", () => {
    const result = computeAgreement(LODESTAR);
    expect(result.kappa).toBeCloseTo(0.428571, 3);
    expect(result.weightedKappa).toBeCloseTo(0.5, 3);
    expect(result.exactAgreement).toBeCloseTo(5 / 8, 10);
    // |differences| 0,2,0,1,0,1,0,0 → 4/8.
    expect(result.meanAbsoluteDifference).toBeCloseTo(0.5, 10);
  });

  it('gives the same κ whichever rater is which (κ is symmetric)', () => {
    const swapped = MAPLE_2.map(({ suggested, human }) => ({ suggested: human, human: suggested }));
    expect(computeAgreement(swapped).kappa).toBeCloseTo(computeAgreement(MAPLE_2).kappa!, 12);
    expect(computeAgreement(swapped).weightedKappa).toBeCloseTo(computeAgreement(MAPLE_2).weightedKappa!, 12);
  });

  it('treats fractional points as categories and weighs them by their distance', () => {
    // Evenly spaced 0, ½, 1 is the same as 0, 1, 2 scaled: weighted κ is unchanged by the scale.
    const halves = LODESTAR.map(({ suggested, human }) => ({ suggested: (suggested - 1) / 2, human: (human - 1) / 2 }));
    expect(computeAgreement(halves).weightedKappa).toBeCloseTo(0.5, 10);
    expect(computeAgreement(halves).kappa).toBeCloseTo(0.428571, 5);
    // 0.1 + 0.2 and 0.3 are one category.
    const rounded = computeAgreement([
      { suggested: 0.1 + 0.2, human: 0.3 },
      { suggested: 0, human: 0 },
    ]);
    expect(rounded.exactAgreement).toBe(1);
    expect(rounded.kappa).toBe(1);
  });

  it('returns n 0 and every figure null, saying why, when there are no pairs', () => {
    const result = computeAgreement([]);
    expect(result).toMatchObject({
      n: 0,
      exactAgreement: null,
      kappa: null,
      weightedKappa: null,
      weightedKappaLow: null,
      weightedKappaHigh: null,
      meanAbsoluteDifference: null,
    });
    expect(result.notes.kappa).toBe(AGREEMENT_REASONS.noPairs);
  });

  it('returns null κ with a reason when both raters gave every answer the same points', () => {
    const result = computeAgreement(cells(12, 2, 2));
    expect(result.exactAgreement).toBe(1);
    expect(result.meanAbsoluteDifference).toBe(0);
    expect(result.kappa).toBeNull();
    expect(result.weightedKappa).toBeNull();
    expect(result.weightedKappaLow).toBeNull();
    expect(result.notes.kappa).toBe(AGREEMENT_REASONS.oneCategory);
  });

  it('returns κ 0 with a note when one rater used a single mark, however often they agree', () => {
    const result = computeAgreement([...cells(9, 2, 2), ...cells(1, 1, 2)]);
    expect(result.exactAgreement).toBeCloseTo(0.9, 10);
    expect(result.kappa).toBeCloseTo(0, 12);
    expect(result.weightedKappa).toBeCloseTo(0, 12);
    expect(result.meanAbsoluteDifference).toBeCloseTo(0.1, 12);
    expect(result.notes.kappa).toBe(AGREEMENT_REASONS.oneSided);
  });

  it('gives κ 1 for perfect agreement and a negative κ for systematic disagreement', () => {
    expect(computeAgreement(pairsOf([0, 1, 2, 3], [0, 1, 2, 3])).weightedKappa).toBeCloseTo(1, 12);
    expect(computeAgreement(pairsOf([0, 1, 2, 3], [3, 2, 1, 0])).weightedKappa).toBeLessThan(0);
  });

  it('rejects points that are not finite numbers', () => {
    expect(() => computeAgreement([{ suggested: Number.NaN, human: 1 }])).toThrow(RangeError);
  });
});

describe('bootstrapWeightedKappa', () => {
  it('gives the same interval for the same pairs (seeded) and covers the point estimate', () => {
    for (const pairs of [YES_NO, repeat(MAPLE_1, 2), repeat(MAPLE_2, 3), repeat(LODESTAR, 2)]) {
      const first = computeAgreement(pairs);
      const second = computeAgreement(pairs);
      expect(second.weightedKappaLow).toBe(first.weightedKappaLow);
      expect(second.weightedKappaHigh).toBe(first.weightedKappaHigh);
      expect(first.weightedKappaLow).not.toBeNull();
      expect(first.weightedKappaLow!).toBeLessThanOrEqual(first.weightedKappa!);
      expect(first.weightedKappaHigh!).toBeGreaterThanOrEqual(first.weightedKappa!);
      expect(first.weightedKappaHigh!).toBeLessThanOrEqual(1);
    }
  });

  it('narrows as the number of answers grows', () => {
    const widths = [2, 8, 32].map((times) => {
      const { weightedKappaLow, weightedKappaHigh, weightedKappa } = computeAgreement(repeat(MAPLE_2, times));
      expect(weightedKappa).toBeCloseTo(0.438095, 5);
      return weightedKappaHigh! - weightedKappaLow!;
    });
    expect(widths[1]!).toBeLessThan(widths[0]!);
    expect(widths[2]!).toBeLessThan(widths[1]!);
    // The standard error falls as 1/√n: 16× the answers, roughly a quarter of the width.
    expect(widths[2]! / widths[0]!).toBeLessThan(0.4);
  });

  it('depends on the seed only through resampling noise', () => {
    const pairs = repeat(MAPLE_1, 8);
    const a = bootstrapWeightedKappa(pairs, 2000, 1);
    const b = bootstrapWeightedKappa(pairs, 2000, 2);
    if ('reason' in a || 'reason' in b) throw new Error('expected intervals');
    expect(a.low).not.toBe(b.low);
    expect(Math.abs(a.low - b.low)).toBeLessThan(0.05);
    expect(Math.abs(a.high - b.high)).toBeLessThan(0.05);
  });

  it('gives no interval for fewer than ten answers, saying why', () => {
    const result = computeAgreement(MAPLE_1);
    expect(result.weightedKappa).not.toBeNull();
    expect(result.weightedKappaLow).toBeNull();
    expect(result.weightedKappaHigh).toBeNull();
    expect(result.notes.interval).toBe(AGREEMENT_REASONS.tooFewPairs);
    expect(bootstrapWeightedKappa(repeat(MAPLE_1, 2))).not.toHaveProperty('reason');
  });
});

describe('quadraticWeightedKappa', () => {
  it('is computeAgreement’s κw without the bootstrap (Maple’s and Lodestar’s published values)', () => {
    expect(quadraticWeightedKappa(MAPLE_1)).toBeCloseTo(0.758620689655172, 12);
    expect(quadraticWeightedKappa(LODESTAR)).toBeCloseTo(0.5, 12);
    expect(quadraticWeightedKappa([])).toBeNull();
    expect(quadraticWeightedKappa(pairsOf([2, 2], [2, 2]))).toBeNull();
  });
});
