import { describe, expect, it } from 'vitest';
import { eapAbilities, fitRasch, RASCH_REASONS } from './rasch.ts';
import { createRandom } from './random.ts';
import { correlation, simulateRasch, spreadDifficulties } from './simulate.ts';

const TRUE_B = spreadDifficulties(20, -2, 2);

describe('fitRasch', () => {
  it('recovers known difficulties within 0.15 logits from 2,000 simulated candidates', () => {
    const { marks, thetas } = simulateRasch(2000, TRUE_B, 20240601);
    const fit = fitRasch(marks, 20);
    expect(fit.converged).toBe(true);
    const errors = fit.items.map((item, j) => Math.abs(item.difficulty! - TRUE_B[j]!));
    expect(Math.max(...errors)).toBeLessThan(0.15);
    // Abilities are standard normal by construction, so no centring: the mean error stays small too.
    expect(Math.abs(errors.reduce((a, b) => a + b, 0) / errors.length)).toBeLessThan(0.08);
    const eap = fit.abilities.map((a) => a.theta!);
    expect(correlation(eap, thetas)).toBeGreaterThan(0.85);
    for (const item of fit.items) expect(item.se!).toBeGreaterThan(0.03);
  });

  it('reports standard errors that match the actual estimation error across seeds', () => {
    // (b̂ − b) / SE should behave like N(0, 1): mean square near 1, no |z| far beyond 3.
    for (const seed of [1, 2, 3, 4, 5]) {
      const { marks } = simulateRasch(2000, TRUE_B, seed);
      const z = fitRasch(marks, 20).items.map((item, j) => (item.difficulty! - TRUE_B[j]!) / item.se!);
      const meanSquare = z.reduce((a, b) => a + b * b, 0) / z.length;
      expect(meanSquare).toBeGreaterThan(0.3);
      expect(meanSquare).toBeLessThan(2.5);
      expect(Math.max(...z.map(Math.abs))).toBeLessThan(4);
    }
  });

  it('recovers difficulties when a fifth of the answers are missing', () => {
    const { marks } = simulateRasch(2000, TRUE_B, 77);
    const rng = createRandom(5);
    const holed = marks.map((row) => row.map((x) => (rng.next() < 0.2 ? null : x)));
    const fit = fitRasch(holed, 20);
    expect(fit.converged).toBe(true);
    const errors = fit.items.map((item, j) => Math.abs(item.difficulty! - TRUE_B[j]!));
    expect(Math.max(...errors)).toBeLessThan(0.2);
  });

  it('gives the same abilities to candidates with the same raw score and no missing answers', () => {
    const { marks } = simulateRasch(300, TRUE_B.slice(0, 8), 9);
    const fit = fitRasch(marks, 8);
    const byScore = new Map<number, number>();
    marks.forEach((row, c) => {
      const score = row.reduce<number>((a, b) => a + b, 0);
      const theta = fit.abilities[c]!.theta!;
      if (byScore.has(score)) expect(theta).toBe(byScore.get(score));
      byScore.set(score, theta);
    });
    const scores = [...byScore.keys()].sort((a, b) => a - b);
    for (let i = 1; i < scores.length; i += 1)
      expect(byScore.get(scores[i]!)!).toBeGreaterThan(byScore.get(scores[i - 1]!)!);
  });

  it('reports items everyone got right or wrong as not estimable instead of diverging', () => {
    const { marks } = simulateRasch(500, [-1, 0, 1], 3);
    const withExtremes = marks.map((row) => [...row, 1, 0]);
    const fit = fitRasch(withExtremes, 5);
    expect(fit.converged).toBe(true);
    expect(fit.items[3]).toEqual({ index: 3, difficulty: null, se: null, reason: RASCH_REASONS.allCorrect });
    expect(fit.items[4]).toEqual({ index: 4, difficulty: null, se: null, reason: RASCH_REASONS.noneCorrect });
    // Dropping the extreme items leaves exactly the fit of the three informative ones.
    const plain = fitRasch(marks, 3);
    for (let j = 0; j < 3; j += 1) expect(fit.items[j]!.difficulty).toBeCloseTo(plain.items[j]!.difficulty!, 10);
    expect(fit.abilities.every((a) => Number.isFinite(a.theta))).toBe(true);
  });

  it('reports that it did not converge when stopped by the iteration limit', () => {
    const { marks } = simulateRasch(300, TRUE_B.slice(0, 6), 8);
    const fit = fitRasch(marks, 6, { maxIterations: 1, tolerance: 1e-12 });
    expect(fit.converged).toBe(false);
    expect(fit.iterations).toBe(1);
    expect(fit.items.every((i) => Number.isFinite(i.difficulty))).toBe(true);
  });

  it('returns nulls with a reason when there are fewer than 2 candidates', () => {
    const fit = fitRasch([[1, 0]], 2);
    expect(fit.reason).toBe(RASCH_REASONS.fewCandidates);
    expect(fit.items.every((i) => i.difficulty === null && i.reason === RASCH_REASONS.fewCandidates)).toBe(true);
    expect(fit.abilities).toEqual([{ theta: null, se: null, reason: RASCH_REASONS.fewCandidates }]);
  });

  it('returns null abilities with a reason when no item separates the candidates', () => {
    const fit = fitRasch(
      [
        [1, 0],
        [1, 0],
      ],
      2,
    );
    expect(fit.reason).toBe(RASCH_REASONS.noEstimableItems);
    expect(fit.abilities[0]!.theta).toBeNull();
  });

  it('gives a candidate with no graded informative answer a null ability with a reason', () => {
    const fit = fitRasch(
      [
        [1, 0],
        [0, 1],
        [null, null],
        [1, 1],
      ],
      2,
    );
    expect(fit.abilities[2]).toEqual({ theta: null, se: null, reason: RASCH_REASONS.noInformation });
    expect(fit.abilities[3]!.theta!).toBeGreaterThan(fit.abilities[0]!.theta!);
  });

  it('gives perfect scorers a finite ability above everyone else', () => {
    const { marks } = simulateRasch(400, TRUE_B.slice(0, 10), 12);
    marks.push(Array(10).fill(1));
    const fit = fitRasch(marks, 10);
    const top = fit.abilities.at(-1)!;
    expect(Number.isFinite(top.theta)).toBe(true);
    expect(Math.max(...fit.abilities.slice(0, -1).map((a) => a.theta!))).toBeLessThanOrEqual(top.theta!);
    expect(top.se!).toBeGreaterThan(0);
  });
});

describe('eapAbilities', () => {
  it('matches the fitted abilities when given the fitted difficulties', () => {
    const { marks } = simulateRasch(200, TRUE_B.slice(0, 6), 4);
    const fit = fitRasch(marks, 6);
    const again = eapAbilities(
      marks,
      fit.items.map((i) => i.difficulty),
    );
    again.forEach((a, c) => expect(a.theta).toBeCloseTo(fit.abilities[c]!.theta!, 12));
  });

  it('uses only the chosen items when given a subset', () => {
    const marks = [
      [1, 0, 0],
      [1, 1, 1],
      [0, 0, 1],
    ];
    const subset = eapAbilities(marks, [0, 0, 0], [0]);
    expect(subset[0]!.theta).toBeCloseTo(subset[1]!.theta!, 12);
    expect(subset[2]!.theta!).toBeLessThan(subset[0]!.theta!);
  });
});
