import { describe, expect, it } from 'vitest';
import { AIDED_REASONS, fitAidedAbility, type AidedAbilityFit } from './aided-ability.ts';
import { simulateAidedCohort } from './simulate-aided.ts';
import { spreadDifficulties } from './simulate.ts';

// Two different forms with the same mean difficulty (0): the anchor of aided-ability.ts holds by construction.
const AIDED_B = spreadDifficulties(20, -2, 2);
const UNAIDED_B = spreadDifficulties(20, -1.5, 1.5).map((b, j) => (j % 2 === 0 ? b + 0.3 : b - 0.3));
const TRUE = { mean: { aided: 0.5, unaided: 0 }, sd: { aided: 1, unaided: 1 }, correlation: 0.7 };

describe('fitAidedAbility: parameter recovery (1,000 candidates × 20 items a set, ρ = 0.7, mean gap 0.5)', () => {
  // One replication with a fixed seed keeps the test fast; bench/psychometrics-aided.ts runs the full study.
  const sim = simulateAidedCohort({ candidates: 1000, aided: AIDED_B, unaided: UNAIDED_B, ...TRUE, seed: 20261129 });
  const fit = fitAidedAbility(sim.marks, sim.sets);

  it('converges and recovers the difficulties and the latent distribution', () => {
    expect(fit.converged).toBe(true);
    const trueB = [...AIDED_B, ...UNAIDED_B];
    for (const item of fit.items) expect(Math.abs(item.difficulty! - trueB[item.index]!)).toBeLessThan(0.3);
    expect(fit.population!.aided.mean).toBeCloseTo(0.5, 0);
    expect(Math.abs(fit.population!.unaided.mean)).toBeLessThan(0.15);
    expect(Math.abs(fit.population!.correlation - 0.7)).toBeLessThan(0.1);
    expect(Math.abs(fit.gap!.model.mean - 0.5)).toBeLessThan(0.1);
  });

  it('estimates θ and the gap without bias, and its 95% intervals cover the true gap 92–97% of the time', () => {
    let biasA = 0;
    let biasU = 0;
    let biasGap = 0;
    let covered = 0;
    fit.candidates.forEach(({ aided, unaided, gap }, c) => {
      const trueGap = sim.aided[c]! - sim.unaided[c]!;
      biasA += aided.theta! - sim.aided[c]!;
      biasU += unaided.theta! - sim.unaided[c]!;
      biasGap += gap.estimate! - trueGap;
      if (gap.low! <= trueGap && trueGap <= gap.high!) covered += 1;
    });
    const n = fit.candidates.length;
    expect(Math.abs(biasA / n)).toBeLessThan(0.1);
    expect(Math.abs(biasU / n)).toBeLessThan(0.1);
    expect(Math.abs(biasGap / n)).toBeLessThan(0.1);
    expect(covered / n).toBeGreaterThanOrEqual(0.92);
    expect(covered / n).toBeLessThanOrEqual(0.97);
  });

  it('flags nobody in a cohort drawn from the model', () => {
    expect(fit.gap!.flagged).toEqual({ above: 0, below: 0 });
    expect(fit.gap!.estimates!.count).toBe(1000);
    const q = fit.gap!.estimates!.quantiles;
    expect(q.p5).toBeLessThan(q.p25);
    expect(q.p25).toBeLessThan(q.p50);
    expect(q.p50).toBeLessThan(q.p75);
    expect(q.p75).toBeLessThan(q.p95);
    // EAPs are shrunk, so their spread is below the model's spread of the true gap.
    expect(fit.gap!.estimates!.sd!).toBeLessThan(fit.gap!.model.sd);
    expect(fit.gap!.reliability!).toBeGreaterThan(0.3);
    expect(fit.gap!.reliability!).toBeLessThan(0.6);
  });

  it('agrees with a plain brute-force integration of the posterior (same item and cohort parameters)', () => {
    for (const c of [0, 1, 2, 3, 500]) {
      const direct = bruteForcePosterior(fit, sim.marks[c]!, sim.sets);
      const { aided, unaided, gap } = fit.candidates[c]!;
      expect(aided.theta!).toBeCloseTo(direct.meanA, 3);
      expect(aided.se!).toBeCloseTo(direct.sdA, 3);
      expect(unaided.theta!).toBeCloseTo(direct.meanU, 3);
      expect(unaided.se!).toBeCloseTo(direct.sdU, 3);
      expect(gap.estimate!).toBeCloseTo(direct.meanA - direct.meanU, 3);
      expect(gap.se!).toBeCloseTo(direct.sdGap, 3);
    }
  });
});

/**
 * The posterior of (θ_A, θ_U) written out plainly, independent of the fit's grouping, Cholesky grid and
 * Gauss–Hermite rule: a 241 × 241 rectangle rule over μ ± 8σ on each axis, the bivariate normal density
 * written from its formula, and the product of every item's P or 1 − P. For Gaussian-tailed integrands the
 * rectangle rule converges geometrically, so this is accurate to far below the 1e-3 asked of the fit.
 */
function bruteForcePosterior(fit: AidedAbilityFit, row: readonly (0 | 1 | null)[], sets: readonly string[]) {
  const { aided, unaided, correlation: rho } = fit.population!;
  const steps = 241;
  const axis = (mean: number, sd: number) =>
    Array.from({ length: steps }, (_, i) => mean - 8 * sd + (16 * sd * i) / (steps - 1));
  const as = axis(aided.mean, aided.sd);
  const us = axis(unaided.mean, unaided.sd);
  let total = 0;
  const sum = { a: 0, u: 0, aa: 0, uu: 0, gg: 0 };
  for (const a of as)
    for (const u of us) {
      const za = (a - aided.mean) / aided.sd;
      const zu = (u - unaided.mean) / unaided.sd;
      let w = Math.exp(-(za * za - 2 * rho * za * zu + zu * zu) / (2 * (1 - rho * rho)));
      fit.items.forEach((item) => {
        const x = row[item.index];
        if (x === null || x === undefined) return;
        const theta = sets[item.index] === 'aided' ? a : u;
        const p = 1 / (1 + Math.exp(item.difficulty! - theta));
        w *= x === 1 ? p : 1 - p;
      });
      total += w;
      sum.a += w * a;
      sum.u += w * u;
      sum.aa += w * a * a;
      sum.uu += w * u * u;
      sum.gg += w * (a - u) * (a - u);
    }
  const meanA = sum.a / total;
  const meanU = sum.u / total;
  return {
    meanA,
    meanU,
    sdA: Math.sqrt(sum.aa / total - meanA ** 2),
    sdU: Math.sqrt(sum.uu / total - meanU ** 2),
    sdGap: Math.sqrt(sum.gg / total - (meanA - meanU) ** 2),
  };
}

describe('fitAidedAbility: agreement with an independent computation of the marginal likelihood', () => {
  // A small cohort (200 × 4 + 4 items) so that a plain rectangle-rule likelihood can be evaluated many times.
  const sim = simulateAidedCohort({
    candidates: 200,
    aided: [-1, -0.3, 0.3, 1],
    unaided: [-1.2, -0.2, 0.4, 1],
    ...TRUE,
    seed: 41,
  });
  const fit = fitAidedAbility(sim.marks, sim.sets);
  const params = [
    ...fit.items.map((i) => i.difficulty!),
    fit.population!.aided.mean,
    fit.population!.unaided.mean,
    fit.population!.aided.sd,
    fit.population!.unaided.sd,
    fit.population!.correlation,
  ];
  const grid = {
    aided: [fit.population!.aided.mean, fit.population!.aided.sd],
    unaided: [fit.population!.unaided.mean, fit.population!.unaided.sd],
  } as const;

  it('reports the same marginal log-likelihood', () => {
    expect(fit.converged).toBe(true);
    expect(fit.logLikelihood!).toBeCloseTo(bruteForceLogLikelihood(sim.marks, params, grid), 3);
  });

  it('sits at the maximum of the independently computed likelihood: every parameter moved either way lowers it', () => {
    // EM and the brute-force likelihood share nothing but the model: if EM had stopped short, or maximised
    // something else, some move would raise the plain likelihood and its slope would not be 0.
    const best = bruteForceLogLikelihood(sim.marks, params, grid);
    params.forEach((_, i) => {
      const moved = (delta: number) =>
        bruteForceLogLikelihood(
          sim.marks,
          params.map((v, k) => (k === i ? v + delta : v)),
          grid,
        );
      const [down, up] = [moved(-0.02), moved(0.02)];
      expect(down).toBeLessThan(best);
      expect(up).toBeLessThan(best);
      // Central-difference slope (per logit): zero at the maximum. Curvature is about 30 a logit here, so an
      // estimate 0.0003 logit off its maximum would show a slope of 0.01.
      expect(Math.abs((up - down) / 0.04)).toBeLessThan(0.01);
    });
  });
});

/**
 * Σ_c log ∫∫ Π_j P_j^x (1 − P_j)^(1 − x) φ₂(θ; μ, Σ) dθ by a 121 × 121 rectangle rule over a fixed box (μ ± 8σ
 * of the fit), the density written from its formula. `params`: the 8 difficulties (4 aided, then 4 unaided,
 * the columns' order), μ_A, μ_U, σ_A, σ_U, ρ. Identical answer rows share their integral.
 */
function bruteForceLogLikelihood(
  marks: readonly (readonly (0 | 1)[])[],
  params: readonly number[],
  box: { aided: readonly [number, number]; unaided: readonly [number, number] },
): number {
  const [meanA, meanU, sdA, sdU, rho] = params.slice(8) as [number, number, number, number, number];
  const steps = 121;
  const axis = ([mean, sd]: readonly [number, number]) =>
    Array.from({ length: steps }, (_, i) => mean - 8 * sd + (16 * sd * i) / (steps - 1));
  const as = axis(box.aided);
  const us = axis(box.unaided);
  const cell = (as[1]! - as[0]!) * (us[1]! - us[0]!);
  const norm = 1 / (2 * Math.PI * sdA * sdU * Math.sqrt(1 - rho * rho));
  // The density does not depend on the answers: one table for every pattern.
  const density = new Float64Array(steps * steps);
  for (let i = 0; i < steps; i += 1)
    for (let k = 0; k < steps; k += 1) {
      const za = (as[i]! - meanA) / sdA;
      const zu = (us[k]! - meanU) / sdU;
      density[i * steps + k] = norm * Math.exp(-(za * za - 2 * rho * za * zu + zu * zu) / (2 * (1 - rho * rho)));
    }
  const patterns = new Map<string, number>();
  for (const row of marks) patterns.set(row.join(''), (patterns.get(row.join('')) ?? 0) + 1);
  let total = 0;
  for (const [pattern, count] of patterns) {
    const x = [...pattern].map(Number);
    const likelihood = (theta: number, from: number) => {
      let l = 1;
      for (let j = from; j < from + 4; j += 1) {
        const p = 1 / (1 + Math.exp(params[j]! - theta));
        l *= x[j] === 1 ? p : 1 - p;
      }
      return l;
    };
    const la = as.map((a) => likelihood(a, 0));
    const lu = us.map((u) => likelihood(u, 4));
    let integral = 0;
    for (let i = 0; i < steps; i += 1)
      for (let k = 0; k < steps; k += 1) integral += la[i]! * lu[k]! * density[i * steps + k]!;
    total += count * Math.log(integral * cell);
  }
  return total;
}

describe('fitAidedAbility: the cohort gap and its flags', () => {
  it('flags candidates whose gap is far above the cohort’s, and few others', () => {
    const base = { aided: AIDED_B, unaided: UNAIDED_B, sd: TRUE.sd, correlation: TRUE.correlation };
    const cohort = simulateAidedCohort({ ...base, candidates: 600, mean: TRUE.mean, seed: 7 });
    // Ten candidates who are 6 logits better with the assistant (the cohort: 0.5 ± 0.77). Gaps of 4 go
    // unflagged at 20 items a set: the gap's reliability is only about 0.5 (aided-gap.ts).
    const leaning = simulateAidedCohort({ ...base, candidates: 10, mean: { aided: 3, unaided: -3 }, seed: 8 });
    const fit = fitAidedAbility([...cohort.marks, ...leaning.marks], cohort.sets);
    const flags = fit.candidates.map((c) => c.gap.flag);
    expect(flags.slice(600).filter((f) => f === 'above').length).toBeGreaterThanOrEqual(7);
    expect(flags.slice(0, 600).filter((f) => f !== null).length).toBeLessThanOrEqual(3);
    for (const c of fit.candidates.slice(600)) if (c.gap.flag) expect(c.gap.z!).toBeGreaterThan(2);
  });
});

describe('fitAidedAbility: edge cases', () => {
  const sim = simulateAidedCohort({
    candidates: 300,
    aided: spreadDifficulties(6, -1.5, 1.5),
    unaided: spreadDifficulties(6, -1, 1),
    ...TRUE,
    seed: 3,
  });

  it('gives finite estimates for all-right and all-wrong sets', () => {
    const marks = [...sim.marks, [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0] as (0 | 1)[]];
    const fit = fitAidedAbility(marks, sim.sets);
    const last = fit.candidates.at(-1)!;
    for (const value of [last.aided.theta, last.unaided.theta, last.gap.estimate, last.gap.low, last.gap.high])
      expect(Number.isFinite(value)).toBe(true);
    // Six items a set and ρ = 0.7 shrink both strongly (towards the cohort and towards each other).
    expect(last.aided.theta!).toBeGreaterThan(fit.population!.aided.mean);
    expect(last.unaided.theta!).toBeLessThan(fit.population!.unaided.mean);
    expect(last.gap.z!).toBeGreaterThan(1);
  });

  it('gives null with a reason for a set the candidate did not answer', () => {
    const none = Array<null>(6).fill(null);
    const marks = [...sim.marks, [...sim.marks[0]!.slice(0, 6), ...none], [...none, ...none]];
    const fit = fitAidedAbility(marks, sim.sets);
    const [noUnaided, noAnswers] = fit.candidates.slice(-2);
    expect(noUnaided!.aided.theta).not.toBeNull();
    expect(noUnaided!.unaided).toEqual({ theta: null, se: null, reason: AIDED_REASONS.noUnaided });
    expect(noUnaided!.gap.estimate).toBeNull();
    expect(noUnaided!.gap.reason).toBe(AIDED_REASONS.noGap);
    expect(noAnswers!.aided.reason).toBe(AIDED_REASONS.noResponses);
    expect(noAnswers!.gap.estimate).toBeNull();
    expect(fit.gap!.estimates!.count).toBe(300);
  });

  it('keeps items everyone got right or wrong in the set’s anchor, and leaves out items nobody answered', () => {
    // Columns 0–5 aided, 6–11 unaided; 12 aided and all right, 13 unaided and all wrong, 14 aided and unanswered.
    const marks = sim.marks.map((row) => [...row, 1, 0, null]);
    const sets = [...sim.sets, 'aided', 'unaided', 'aided'] as const;
    const fit = fitAidedAbility(marks, sets);
    expect(fit.converged).toBe(true);
    const [allRight, allWrong, unanswered] = fit.items.slice(-3);
    expect(allRight!.reason).toBe(AIDED_REASONS.allCorrect);
    expect(allRight!.difficulty!).toBeLessThan(-4);
    expect(allWrong!.reason).toBe(AIDED_REASONS.noneCorrect);
    expect(allWrong!.difficulty!).toBeGreaterThan(4);
    expect(unanswered).toMatchObject({ difficulty: null, reason: AIDED_REASONS.noAnswers });
    // Each set's difficulties (extreme ones included) average 0: the anchor.
    for (const set of ['aided', 'unaided'] as const) {
      const b = fit.items.filter((i) => i.set === set && i.difficulty !== null).map((i) => i.difficulty!);
      expect(b.reduce((x, y) => x + y, 0) / b.length).toBeCloseTo(0, 9);
    }
    for (const c of fit.candidates) expect(Number.isFinite(c.gap.estimate)).toBe(true);
  });

  it('needs two candidates and answered items in both sets', () => {
    expect(fitAidedAbility([sim.marks[0]!], sim.sets).reason).toBe(AIDED_REASONS.fewCandidates);
    const onlyAided = fitAidedAbility(
      sim.marks,
      sim.sets.map((s) => (s === 'aided' ? s : null)),
    );
    expect(onlyAided.reason).toBe(AIDED_REASONS.noSet);
    expect(onlyAided.candidates[0]!.gap).toMatchObject({ estimate: null, reason: AIDED_REASONS.noSet });
  });
});
