import { describe, expect, it } from 'vitest';
import { gaussHermiteNormal } from './gauss-hermite.ts';
import { lsatMarks } from './lsat.ts';
import { createRandom } from './random.ts';
import { eapAbilities, fitRasch, RASCH_REASONS } from './rasch.ts';
import { groupResponses, logisticPosteriors } from './rasch-posterior.ts';
import { correlation, simulateRasch, simulateTwoPl, spreadDifficulties } from './simulate.ts';
import { fitTwoPl, invertPositiveDefinite, MAX_DISCRIMINATION_SE, TWO_PL_REASONS } from './twopl.ts';

/**
 * ltm 1.2's fits of the LSAT data (Rizopoulos 2006, "ltm: An R package for latent variable modeling and item
 * response theory analyses", J. Stat. Softw. 17(5), §4.1 and the package's examples), as printed by
 * `coef(ltm(LSAT ~ z1))`, `coef(rasch(LSAT))` and `coef(rasch(LSAT, constraint = cbind(6, 1)))`: e.g. the
 * RPubs walk-through https://rstudio-pubs-static.s3.amazonaws.com/1049111_d258e411eefe4ba085e3bbc59b32dbeb.html
 * and the reference files ltm wrote for github.com/Paulius-Satkus/IRT_Basics (tests/ltm_reference/
 * lsat_2pl_params.csv, lsat_rasch_estimated_params.csv, lsat_rasch_fixed_params.csv, *_loglik.txt).
 */
const LTM_2PL = {
  difficulty: [-3.3597341, -1.3696497, -0.2798983, -1.8659189, -3.1235725],
  discrimination: [0.8253715, 0.7229499, 0.8904748, 0.6885502, 0.6574516],
  logLikelihood: -2466.653,
};
const LTM_1PL = {
  difficulty: [-3.6152665, -1.3224208, -0.3176306, -1.7300904, -2.7801717],
  discrimination: 0.7551347,
  logLikelihood: -2466.938,
};
const LTM_RASCH = {
  difficulty: [-2.8719712, -1.0630294, -0.2576109, -1.3880588, -2.2187785],
  logLikelihood: -2473.054,
};

describe('fitTwoPl on the LSAT data (reference: ltm)', () => {
  const marks = lsatMarks();

  it('reproduces ltm’s 2PL difficulties, discriminations and log-likelihood to two decimals', () => {
    const fit = fitTwoPl(marks, 5);
    expect(fit.converged).toBe(true);
    fit.items.forEach((item, j) => {
      expect(item.difficulty!).toBeCloseTo(LTM_2PL.difficulty[j]!, 2);
      expect(item.discrimination!).toBeCloseTo(LTM_2PL.discrimination[j]!, 2);
    });
    expect(fit.logLikelihood!).toBeCloseTo(LTM_2PL.logLikelihood, 2);
    expect(fit.parameters).toBe(10);
  });

  it('reproduces ltm’s 1PL with a common free discrimination', () => {
    const fit = fitTwoPl(marks, 5, { discrimination: 'common' });
    expect(fit.converged).toBe(true);
    fit.items.forEach((item, j) => {
      expect(item.difficulty!).toBeCloseTo(LTM_1PL.difficulty[j]!, 2);
      expect(item.discrimination!).toBeCloseTo(LTM_1PL.discrimination, 3);
    });
    expect(fit.logLikelihood!).toBeCloseTo(LTM_1PL.logLikelihood, 2);
    expect(fit.parameters).toBe(6);
  });

  it('reproduces ltm’s Rasch fit with the discrimination fixed at 1 (fitRasch)', () => {
    const fit = fitRasch(marks, 5);
    fit.items.forEach((item, j) => expect(item.difficulty!).toBeCloseTo(LTM_RASCH.difficulty[j]!, 2));
    expect(fit.logLikelihood!).toBeCloseTo(LTM_RASCH.logLikelihood, 2);
  });

  it('gives standard errors close to the inverse of the numerical Hessian of the marginal log-likelihood', () => {
    // ltm's standard errors come from the Hessian of the marginal log-likelihood; the cross-product
    // information estimates the same matrix, so on 1000 examinees the two agree within about 10%.
    const fit = fitTwoPl(marks, 5);
    const hessianSe = numericalHessianSe(
      marks,
      fit.items.map((i) => i.discrimination!),
      fit.items.map((i) => i.difficulty!),
    );
    fit.items.forEach((item, j) => {
      expect(item.discriminationSe! / hessianSe.a[j]!).toBeGreaterThan(0.9);
      expect(item.discriminationSe! / hessianSe.a[j]!).toBeLessThan(1.1);
      expect(item.difficultySe! / hessianSe.b[j]!).toBeGreaterThan(0.9);
      expect(item.difficultySe! / hessianSe.b[j]!).toBeLessThan(1.1);
    });
  });
});

describe('fitTwoPl on simulated data', () => {
  const A = [0.5, 0.8, 1.2, 1.6, 2.0, 0.7, 1.0, 1.4, 1.8, 0.6];
  const B = spreadDifficulties(10, -1.5, 1.5);

  /** Every estimate within 3 of its standard errors and `absolute` of the truth. */
  const expectRecovered = (fit: ReturnType<typeof fitTwoPl>, absolute: { a: number; b: number }) =>
    fit.items.forEach((item, j) => {
      expect(Math.abs(item.discrimination! - A[j]!)).toBeLessThan(Math.min(absolute.a, 3 * item.discriminationSe!));
      expect(Math.abs(item.difficulty! - B[j]!)).toBeLessThan(Math.min(absolute.b, 3 * item.difficultySe!));
    });

  it('recovers known discriminations and difficulties from 3,000 candidates', () => {
    const { marks, thetas } = simulateTwoPl(3000, A, B, 4242);
    const fit = fitTwoPl(marks, 10);
    expect(fit.converged).toBe(true);
    expectRecovered(fit, { a: 0.3, b: 0.2 });
    expect(
      correlation(
        Float64Array.from(fit.abilities, (a) => a.theta!),
        thetas,
      ),
    ).toBeGreaterThan(0.8);
  });

  it('reports standard errors that match the actual estimation error across seeds', () => {
    const z: number[] = [];
    for (const seed of [1, 2, 3, 4]) {
      const fit = fitTwoPl(simulateTwoPl(1500, A, B, seed).marks, 10);
      fit.items.forEach((item, j) => {
        z.push((item.discrimination! - A[j]!) / item.discriminationSe!);
        z.push((item.difficulty! - B[j]!) / item.difficultySe!);
      });
    }
    const meanSquare = z.reduce((s, x) => s + x * x, 0) / z.length;
    expect(meanSquare).toBeGreaterThan(0.5);
    expect(meanSquare).toBeLessThan(1.8);
    expect(Math.max(...z.map(Math.abs))).toBeLessThan(4.5);
  });

  it('fits each item over those who answered it: missing answers are left out, not wrong', () => {
    const { marks } = simulateTwoPl(3000, A, B, 99);
    const rng = createRandom(3);
    // A pool: every item drawn by about 60% of the candidates.
    const pooled = marks.map((row) => row.map((x) => (rng.next() < 0.4 ? null : x)));
    const fit = fitTwoPl(pooled, 10);
    expect(fit.converged).toBe(true);
    expectRecovered(fit, { a: 0.5, b: 0.3 });
    // Counting missing as wrong would make every item look much harder.
    const asWrong = fitTwoPl(
      pooled.map((row) => row.map((x) => x ?? 0)),
      10,
    );
    expect(asWrong.items[0]!.difficulty!).toBeGreaterThan(fit.items[0]!.difficulty! + 0.5);
  });

  it('finds discriminations near 1 on Rasch data', () => {
    const fit = fitTwoPl(simulateRasch(3000, B, 17).marks, 10);
    for (const item of fit.items) expect(Math.abs(item.discrimination! - 1)).toBeLessThan(0.25);
  });

  it('gives a reversed item a negative discrimination', () => {
    const { marks } = simulateTwoPl(2000, [...A.slice(0, 9), -1], B, 5);
    const fit = fitTwoPl(marks, 10);
    expect(fit.items[9]!.discrimination!).toBeLessThan(-0.6);
    expect(fit.items[9]!.difficulty!).toBeCloseTo(B[9]!, 0);
  });

  it('matches the EAP abilities recomputed from its own parameters', () => {
    const { marks } = simulateTwoPl(400, A, B, 8);
    const fit = fitTwoPl(marks, 10);
    const again = eapAbilities(
      marks,
      fit.items.map((i) => i.difficulty),
      undefined,
      41,
      fit.items.map((i) => i.discrimination),
    );
    again.forEach((a, c) => expect(a.theta!).toBeCloseTo(fit.abilities[c]!.theta!, 6));
  });
});

describe('fitTwoPl when the data cannot support it', () => {
  it('reports items everyone got right or wrong as not estimable', () => {
    const { marks } = simulateTwoPl(800, [1, 1.5, 0.8], [-1, 0, 1], 3);
    const fit = fitTwoPl(
      marks.map((row) => [...row, 1, 0]),
      5,
    );
    expect(fit.items[3]).toMatchObject({ discrimination: null, difficulty: null, reason: RASCH_REASONS.allCorrect });
    expect(fit.items[4]).toMatchObject({ discrimination: null, difficulty: null, reason: RASCH_REASONS.noneCorrect });
    expect(fit.parameters).toBe(6);
    expect(fit.items.slice(0, 3).every((i) => i.discrimination !== null)).toBe(true);
  });

  it('says why when there are fewer than 2 candidates or no separating item', () => {
    expect(fitTwoPl([[1, 0]], 2).reason).toBe(TWO_PL_REASONS.fewCandidates);
    const flat = fitTwoPl(
      [
        [1, 0],
        [1, 0],
      ],
      2,
    );
    expect(flat.reason).toBe(TWO_PL_REASONS.noEstimableItems);
    expect(flat.logLikelihood).toBeNull();
    expect(flat.abilities[0]!.theta).toBeNull();
  });

  it('reports an item that splits the candidates perfectly as unbounded instead of a huge number', () => {
    // Items 1 and 2 are answered identically by all 6 candidates: the likelihood keeps growing as their
    // discriminations grow (a perfect split at one ability level), so there is no finite maximum.
    const marks = [
      [1, 1, 0],
      [1, 1, 0],
      [1, 1, 1],
      [0, 0, 1],
      [0, 0, 0],
      [0, 0, 1],
    ];
    const fit = fitTwoPl(marks, 3, { maxIterations: 300 });
    const unbounded = fit.items.filter((i) => i.reason === TWO_PL_REASONS.unbounded);
    expect(unbounded.length).toBeGreaterThan(0);
    for (const item of unbounded) expect(item.discrimination).toBeNull();
  });

  it('never reports a discrimination whose standard error dwarfs any plausible one (a slow, unbounded climb)', () => {
    // 30 candidates; item 0 is right exactly when at least 3 of the 5 ordinary items are (a perfect split on the
    // sum score). With this seed item 1 ends its climb at about 5 ± 26 without the standard-error rule.
    const random = createRandom(1);
    const marks = Array.from({ length: 30 }, () => {
      const theta = random.normal();
      const rest = [-1, -0.5, 0, 0.5, 1].map((b) => random.bernoulli(1 / (1 + Math.exp(-1.5 * (theta - b)))));
      return [rest.reduce<number>((n, m) => n + m, 0) >= 3 ? 1 : 0, ...rest];
    });
    const fit = fitTwoPl(marks, 6);
    for (const item of fit.items) {
      if (item.discrimination !== null) expect(item.discriminationSe ?? 0).toBeLessThanOrEqual(MAX_DISCRIMINATION_SE);
    }
    expect(fit.items[0]!.reason).toBe(TWO_PL_REASONS.unbounded);
    expect(fit.items[1]!.reason).toBe(TWO_PL_REASONS.unbounded);
    expect(fit.items[1]!.discrimination).toBeNull();
  });

  it('reports that it did not converge when stopped by the iteration limit', () => {
    const fit = fitTwoPl(simulateTwoPl(300, [1, 2, 0.5, 1.5], [-1, 0, 0.5, 1], 6).marks, 4, {
      maxIterations: 2,
      tolerance: 1e-12,
    });
    expect(fit.converged).toBe(false);
    expect(fit.iterations).toBe(2);
  });
});

describe('invertPositiveDefinite', () => {
  it('inverts a symmetric positive-definite matrix and refuses a singular one', () => {
    const inverse = invertPositiveDefinite(Float64Array.from([4, 2, 2, 3]), 2)!;
    expect([...inverse].map((x) => x * 8)).toEqual([3, -2, -2, 4].map((x) => expect.closeTo(x, 12)));
    expect(invertPositiveDefinite(Float64Array.from([1, 1, 1, 1]), 2)).toBeNull();
  });
});

/** Standard errors of (a, b) from a central-difference Hessian of the marginal log-likelihood in (a, d). */
function numericalHessianSe(marks: readonly (readonly number[])[], a: number[], b: number[]) {
  const J = a.length;
  const quad = gaussHermiteNormal(41);
  const groups = groupResponses(
    marks,
    a.map((_, j) => j),
    'pattern',
  );
  const theta0 = a.flatMap((aj, j) => [aj, -aj * b[j]!]);
  const logLik = (theta: number[]) =>
    logisticPosteriors(
      groups,
      Float64Array.from({ length: J }, (_, j) => theta[2 * j]!),
      Float64Array.from({ length: J }, (_, j) => theta[2 * j + 1]!),
      quad,
    ).logLikelihood;
  const P = 2 * J;
  const h = 1e-3;
  const info = new Float64Array(P * P);
  for (let i = 0; i < P; i += 1) {
    for (let j = i; j < P; j += 1) {
      const at = (di: number, dj: number) => {
        const t = [...theta0];
        t[i]! += di;
        t[j]! += dj;
        return logLik(t);
      };
      const second = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h);
      info[i * P + j] = -second;
      info[j * P + i] = -second;
    }
  }
  const cov = invertPositiveDefinite(info, P)!;
  return {
    a: a.map((_, j) => Math.sqrt(cov[2 * j * P + 2 * j]!)),
    b: a.map((aj, j) => {
      const bj = b[j]!;
      const varA = cov[2 * j * P + 2 * j]!;
      const varD = cov[(2 * j + 1) * P + 2 * j + 1]!;
      const covAD = cov[2 * j * P + 2 * j + 1]!;
      return Math.sqrt(varD + bj * bj * varA + 2 * bj * covAD) / Math.abs(aj);
    }),
  };
}
