import type { Mark } from './classical.ts';
import { gaussHermiteNormal, type Quadrature } from './gauss-hermite.ts';
import { abilitiesFrom, RASCH_REASONS, unestimableReason, type RaschAbility } from './rasch.ts';
import { expectedCounts, groupResponses, logisticPosteriors, type ResponseGroups } from './rasch-posterior.ts';

/**
 * Two-parameter logistic (2PL) model, P(x_j = 1 | θ) = σ(a_j (θ − b_j)), θ ~ N(0, 1), on the logistic
 * metric: there is no 1.7 (or 1.702) scaling constant, so a and b are what ltm's `ltm(X ~ z1)` and mirt's
 * `itemtype = '2PL'` report, not the normal-ogive metric of BILOG's default output.
 *
 * Fitted by marginal maximum likelihood with the EM algorithm of Bock & Aitkin (1981, Psychometrika 46(4)),
 * exactly as the Rasch fit (rasch.ts): the same Gauss–Hermite quadrature, the same E-step counts
 * (rasch-posterior.ts expectedCounts), candidates grouped by whole response pattern since the raw score is
 * no longer sufficient. The M-step works per item in slope–intercept form, logit P = a·q + d (b = −d/a),
 * where the expected complete-data log-likelihood Σ_k r_k log P_k + (n_k − r_k) log(1 − P_k) is a weighted
 * logistic regression on the nodes and so concave: 2×2 Newton–Raphson,
 *   (a, d) ← (a, d) + I⁻¹ g,  g = Σ_k (r_k − n_k P_k)(q_k, 1),  I = Σ_k n_k P_k (1 − P_k)(q_k, 1)(q_k, 1)ᵀ.
 *
 * `discrimination: 'common'` fits one discrimination shared by all items instead (ltm's `rasch(X)`, the
 * 1PL with a free common slope): the model the 2PL is tested against (model-choice.ts). Its groups are
 * by raw score again, since a common slope keeps the raw score sufficient.
 *
 * Standard errors: from the empirical (cross-product) information of the marginal likelihood at convergence,
 * Σ_patterns n_g s_g s_gᵀ with s_g the pattern's score ∂ log ∫ L_g(θ) φ(θ) dθ / ∂(a, d) — the estimate
 * of the observed information used by BILOG's "empirical" option and mirt's `SE.type = 'crossprod'`
 * (Mislevy 1984; Chalmers 2012, J. Stat. Softw. 48(6)). It accounts for the uncertainty in θ and for the
 * covariance between items, unlike the inverse of the M-step information. The full 2J × 2J matrix is
 * inverted; b's error comes by the delta method, Var(b) = (Var d + b² Var a + 2b Cov(a, d)) / a².
 *
 * Abilities are EAP estimates (posterior mean) with the posterior SD as their standard error.
 */
export interface TwoPlOptions {
  quadraturePoints?: number;
  tolerance?: number;
  maxIterations?: number;
  /** 'free' (2PL, the default) or 'common' (one discrimination for all items). */
  discrimination?: 'free' | 'common';
  /** Starting difficulties (e.g. a Rasch fit's), null where unknown; the default is −logit(proportion correct). */
  start?: readonly (number | null)[];
}

export interface TwoPlItem {
  index: number;
  discrimination: number | null;
  difficulty: number | null;
  discriminationSe: number | null;
  difficultySe: number | null;
  reason?: string;
}

export interface TwoPlFit {
  items: TwoPlItem[];
  abilities: RaschAbility[];
  converged: boolean;
  iterations: number;
  logLikelihood: number | null;
  /** Free item parameters of the fit (2 per estimable item, or items + 1 with a common discrimination). */
  parameters: number;
  reason?: string;
}

export const TWO_PL_REASONS = {
  fewCandidates: 'The 2PL model needs at least 2 submitted attempts.',
  noEstimableItems: RASCH_REASONS.noEstimableItems,
  unbounded:
    'The discrimination grows without bound: this question splits the candidates perfectly at one ability level, so it has no finite estimate (usually too few candidates).',
  flat: 'The discrimination is about 0: the question does not separate stronger from weaker candidates, so its difficulty is not defined.',
  singularInformation:
    'Standard errors are unavailable: the data carry too little information to estimate every discrimination and difficulty (more candidates are needed).',
} as const;

const DEFAULTS = { quadraturePoints: 41, tolerance: 1e-5, maxIterations: 1000 };
const NEWTON_STEPS = 25;
const MAX_STEP = 1;
/** |a| beyond this means divergence (a perfect split), not a measurement: no real item discriminates so sharply. */
export const MAX_DISCRIMINATION = 15;
/** |a| below this: the item is flat and b = −d/a is numerically meaningless. */
export const FLAT_DISCRIMINATION = 0.05;
/**
 * A discrimination whose standard error is larger than this is taken as unbounded too: EM creeps towards infinity
 * so slowly on a perfectly splitting item that it can stop well below MAX_DISCRIMINATION (seen: 11 ± 8,500 with
 * 30 candidates), and no plausible logistic-metric discrimination is that uncertain.
 */
export const MAX_DISCRIMINATION_SE = 10;

export function fitTwoPl(marks: readonly (readonly Mark[])[], itemCount: number, options: TwoPlOptions = {}): TwoPlFit {
  const { quadraturePoints, tolerance, maxIterations } = { ...DEFAULTS, ...options };
  const common = options.discrimination === 'common';
  const all = Array.from({ length: itemCount }, (_, j) => j);
  const answeredCount = new Float64Array(itemCount);
  const correctCount = new Float64Array(itemCount);
  for (const row of marks) {
    for (let j = 0; j < itemCount; j += 1) {
      const mark = row[j] ?? null;
      if (mark === null) continue;
      answeredCount[j]! += 1;
      if (mark >= 0.5) correctCount[j]! += 1;
    }
  }
  const items: TwoPlItem[] = all.map((j) => {
    const answered = answeredCount[j]!;
    const correct = correctCount[j]!;
    const reason = unestimableReason(answered, correct);
    return {
      index: j,
      discrimination: null,
      difficulty: null,
      discriminationSe: null,
      difficultySe: null,
      ...(reason ? { reason } : {}),
    };
  });
  const noAbilities = (reason: string) => marks.map(() => ({ theta: null, se: null, reason }));
  const empty = (reason: string): TwoPlFit => ({
    items,
    abilities: noAbilities(reason),
    converged: false,
    iterations: 0,
    logLikelihood: null,
    parameters: 0,
    reason,
  });
  if (marks.length < 2) {
    for (const item of items) item.reason = TWO_PL_REASONS.fewCandidates;
    return empty(TWO_PL_REASONS.fewCandidates);
  }
  const estimable = items.filter((i) => i.reason === undefined).map((i) => i.index);
  if (estimable.length === 0) return empty(TWO_PL_REASONS.noEstimableItems);

  const quad = gaussHermiteNormal(quadraturePoints);
  const groups = groupResponses(marks, estimable, common ? 'score' : 'pattern');
  const J = estimable.length;
  const a = new Float64Array(J).fill(1);
  const d = Float64Array.from(groups.itemCorrect, (correct, p) => {
    const start = options.start?.[estimable[p]!];
    if (start !== null && start !== undefined && Number.isFinite(start)) return -start;
    const pc = correct / groups.itemAnswered[p]!;
    return Math.log(pc / (1 - pc));
  });
  let iterations = 0;
  /** One EM cycle in place; returns the log-likelihood before it and the largest parameter change. */
  const em = () => {
    iterations += 1;
    const { post, logLikelihood } = logisticPosteriors(groups, a, d, quad);
    const { n, r } = expectedCounts(groups, post, quad);
    const change = common ? commonStep(a, d, n, r, quad) : freeStep(a, d, n, r, quad);
    return { logLikelihood, change };
  };
  const converged = accelerate(a, d, em, tolerance, maxIterations, () => iterations);
  const { post, logLikelihood } = logisticPosteriors(groups, a, d, quad);
  const covariance = common ? null : crossProductCovariance(groups, post, a, d, quad);
  estimable.forEach((j, p) => {
    const item = items[j]!;
    const slope = a[p]!;
    if (Math.abs(slope) >= MAX_DISCRIMINATION) {
      item.reason = TWO_PL_REASONS.unbounded;
      return;
    }
    const slopeSe = covariance ? Math.sqrt(covariance.at(2 * p, 2 * p)) : null;
    if (slopeSe !== null && !(slopeSe <= MAX_DISCRIMINATION_SE)) {
      item.reason = TWO_PL_REASONS.unbounded;
      return;
    }
    item.discrimination = slope;
    item.discriminationSe = slopeSe;
    if (Math.abs(slope) < FLAT_DISCRIMINATION) {
      item.reason = TWO_PL_REASONS.flat;
      return;
    }
    const b = -d[p]! / slope;
    item.difficulty = b;
    if (covariance) {
      const varA = covariance.at(2 * p, 2 * p);
      const varD = covariance.at(2 * p + 1, 2 * p + 1);
      const cov = covariance.at(2 * p, 2 * p + 1);
      item.difficultySe = Math.sqrt(Math.max(0, varD + b * b * varA + 2 * b * cov)) / Math.abs(slope);
    } else if (!common) item.reason = TWO_PL_REASONS.singularInformation;
  });
  return {
    items,
    abilities: abilitiesFrom(groups, post, quad),
    converged,
    iterations,
    logLikelihood,
    parameters: common ? J + 1 : 2 * J,
  };
}

/**
 * EM accelerated by SQUAREM (Varadhan & Roland 2008, "Simple and globally convergent methods for accelerating
 * the convergence of any EM algorithm", Scand. J. Statist. 35(2), scheme S3): from θ0, two EM cycles give
 * θ1, θ2; with r = θ1 − θ0, v = θ2 − θ1 − r and α = −‖r‖/‖v‖ (at most −1), the extrapolated point
 * θ0 − 2αr + α²v is taken through one more EM cycle. If that point's log-likelihood is below θ1's (EM never
 * decreases it, so θ2 is at least as good), the extrapolation is dropped and θ2 kept: the likelihood still
 * never goes down. Bock–Aitkin EM converges linearly and slowly on the 2PL; this cuts the cycles needed.
 * Converged when an ordinary EM cycle moves no parameter more than `tolerance`.
 */
function accelerate(
  a: Float64Array,
  d: Float64Array,
  em: () => { logLikelihood: number; change: number },
  tolerance: number,
  maxIterations: number,
  iterations: () => number,
): boolean {
  const J = a.length;
  const snapshot = () => Float64Array.from([...a, ...d]);
  const restore = (theta: Float64Array) => {
    a.set(theta.subarray(0, J));
    d.set(theta.subarray(J));
  };
  while (iterations() < maxIterations) {
    const theta0 = snapshot();
    if (em().change < tolerance) return true;
    const theta1 = snapshot();
    if (iterations() >= maxIterations) return false;
    const step = em();
    if (step.change < tolerance) return true;
    const logLikelihood1 = step.logLikelihood;
    const theta2 = snapshot();
    if (iterations() >= maxIterations) return false;
    let rr = 0;
    let vv = 0;
    for (let i = 0; i < theta0.length; i += 1) {
      const r = theta1[i]! - theta0[i]!;
      const v = theta2[i]! - theta1[i]! - r;
      rr += r * r;
      vv += v * v;
    }
    if (!(vv > 0)) continue;
    const alpha = Math.min(-1, -Math.sqrt(rr / vv));
    const extrapolated = theta0.map((t0, i) => {
      const r = theta1[i]! - t0;
      const v = theta2[i]! - theta1[i]! - r;
      return t0 - 2 * alpha * r + alpha * alpha * v;
    });
    for (let i = 0; i < J; i += 1)
      extrapolated[i] = Math.max(-MAX_DISCRIMINATION, Math.min(MAX_DISCRIMINATION, extrapolated[i]!));
    restore(extrapolated);
    const stabilised = em();
    if (!Number.isFinite(stabilised.logLikelihood) || stabilised.logLikelihood < logLikelihood1) restore(theta2);
  }
  return false;
}

/** One M-step of the 2PL: Newton–Raphson on each item's (a, d); returns the largest parameter change. */
function freeStep(a: Float64Array, d: Float64Array, n: Float64Array, r: Float64Array, quad: Quadrature): number {
  const K = quad.nodes.length;
  let maxChange = 0;
  for (let p = 0; p < a.length; p += 1) {
    const a0 = a[p]!;
    const d0 = d[p]!;
    let slope = a0;
    let intercept = d0;
    for (let step = 0; step < NEWTON_STEPS; step += 1) {
      let ga = 0;
      let gd = 0;
      let iaa = 0;
      let iad = 0;
      let idd = 0;
      for (let k = 0; k < K; k += 1) {
        const q = quad.nodes[k]!;
        const prob = 1 / (1 + Math.exp(-(slope * q + intercept)));
        const nk = n[p * K + k]!;
        const residual = r[p * K + k]! - nk * prob;
        const w = nk * prob * (1 - prob);
        ga += residual * q;
        gd += residual;
        iaa += w * q * q;
        iad += w * q;
        idd += w;
      }
      const det = iaa * idd - iad * iad;
      if (!(det > 1e-300)) break;
      let da = (idd * ga - iad * gd) / det;
      let dd = (iaa * gd - iad * ga) / det;
      // Damp long steps (far from the optimum, or heading to a perfect split) to keep Newton stable.
      const length = Math.max(Math.abs(da), Math.abs(dd));
      if (length > MAX_STEP) {
        da *= MAX_STEP / length;
        dd *= MAX_STEP / length;
      }
      slope = Math.max(-MAX_DISCRIMINATION, Math.min(MAX_DISCRIMINATION, slope + da));
      intercept += dd;
      if (length < 1e-10) break;
    }
    a[p] = slope;
    d[p] = intercept;
    maxChange = Math.max(maxChange, Math.abs(slope - a0), Math.abs(intercept - d0));
  }
  return maxChange;
}

/** One M-step with a common discrimination: each d given a, then a given every d (an ECM cycle). */
function commonStep(a: Float64Array, d: Float64Array, n: Float64Array, r: Float64Array, quad: Quadrature): number {
  const K = quad.nodes.length;
  const J = a.length;
  let maxChange = 0;
  const slope0 = a[0]!;
  for (let p = 0; p < J; p += 1) {
    const d0 = d[p]!;
    let intercept = d0;
    for (let step = 0; step < NEWTON_STEPS; step += 1) {
      let g = 0;
      let info = 0;
      for (let k = 0; k < K; k += 1) {
        const prob = 1 / (1 + Math.exp(-(slope0 * quad.nodes[k]! + intercept)));
        const nk = n[p * K + k]!;
        g += r[p * K + k]! - nk * prob;
        info += nk * prob * (1 - prob);
      }
      if (!(info > 0)) break;
      const delta = Math.max(-MAX_STEP, Math.min(MAX_STEP, g / info));
      intercept += delta;
      if (Math.abs(delta) < 1e-10) break;
    }
    d[p] = intercept;
    maxChange = Math.max(maxChange, Math.abs(intercept - d0));
  }
  let slope = slope0;
  for (let step = 0; step < NEWTON_STEPS; step += 1) {
    let g = 0;
    let info = 0;
    for (let p = 0; p < J; p += 1) {
      for (let k = 0; k < K; k += 1) {
        const q = quad.nodes[k]!;
        const prob = 1 / (1 + Math.exp(-(slope * q + d[p]!)));
        const nk = n[p * K + k]!;
        g += (r[p * K + k]! - nk * prob) * q;
        info += nk * prob * (1 - prob) * q * q;
      }
    }
    if (!(info > 0)) break;
    const delta = Math.max(-MAX_STEP, Math.min(MAX_STEP, g / info));
    slope = Math.max(-MAX_DISCRIMINATION, Math.min(MAX_DISCRIMINATION, slope + delta));
    if (Math.abs(delta) < 1e-10) break;
  }
  a.fill(slope);
  return Math.max(maxChange, Math.abs(slope - slope0));
}

/** A symmetric matrix stored row-major. */
interface Symmetric {
  at(i: number, j: number): number;
}

/**
 * Inverse of the cross-product information Σ_g n_g s_g s_gᵀ over parameters (a_0, d_0, a_1, d_1, …), where
 * the pattern score of item p is E_post[(x_p − P_p(θ))·(θ, 1)] (0 for unanswered items). null when the
 * matrix is not positive definite.
 */
function crossProductCovariance(
  groups: ResponseGroups,
  post: Float64Array,
  a: Float64Array,
  d: Float64Array,
  quad: Quadrature,
): Symmetric | null {
  const K = quad.nodes.length;
  const J = a.length;
  const P = 2 * J;
  const prob = new Float64Array(J * K);
  for (let p = 0; p < J; p += 1)
    for (let k = 0; k < K; k += 1) prob[p * K + k] = 1 / (1 + Math.exp(-(a[p]! * quad.nodes[k]! + d[p]!)));
  const info = new Float64Array(P * P);
  const score = new Float64Array(P);
  const answered = new Uint8Array(J);
  for (let g = 0; g < groups.groupMask.length; g += 1) {
    const size = groups.groupSize[g]!;
    const correct = groups.groupCorrect[g]!;
    answered.fill(1);
    for (const p of groups.missing[groups.groupMask[g]!]!) answered[p] = 0;
    const gOff = g * K;
    let thetaMean = 0;
    for (let k = 0; k < K; k += 1) thetaMean += post[gOff + k]! * quad.nodes[k]!;
    for (let p = 0; p < J; p += 1) {
      if (!answered[p]) {
        score[2 * p] = 0;
        score[2 * p + 1] = 0;
        continue;
      }
      const x = correct[p]! / size;
      let eP = 0;
      let eQP = 0;
      const pOff = p * K;
      for (let k = 0; k < K; k += 1) {
        const w = post[gOff + k]! * prob[pOff + k]!;
        eP += w;
        eQP += w * quad.nodes[k]!;
      }
      score[2 * p] = x * thetaMean - eQP;
      score[2 * p + 1] = x - eP;
    }
    for (let i = 0; i < P; i += 1) {
      const si = score[i]! * size;
      if (si === 0) continue;
      const row = i * P;
      for (let j = i; j < P; j += 1) info[row + j] = info[row + j]! + si * score[j]!;
    }
  }
  for (let i = 0; i < P; i += 1) for (let j = 0; j < i; j += 1) info[i * P + j] = info[j * P + i]!;
  const inverse = invertPositiveDefinite(info, P);
  return inverse ? { at: (i, j) => inverse[i * P + j]! } : null;
}

/** Inverse by Cholesky factorisation; null when the matrix is not (numerically) positive definite. */
export function invertPositiveDefinite(matrix: Float64Array, size: number): Float64Array | null {
  const L = new Float64Array(size * size);
  for (let i = 0; i < size; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = matrix[i * size + j]!;
      for (let k = 0; k < j; k += 1) sum -= L[i * size + k]! * L[j * size + k]!;
      if (i === j) {
        if (!(sum > 1e-10 * Math.max(1, Math.abs(matrix[i * size + i]!)))) return null;
        L[i * size + i] = Math.sqrt(sum);
      } else L[i * size + j] = sum / L[j * size + j]!;
    }
  }
  // L⁻¹ (lower triangular), then A⁻¹ = L⁻ᵀ L⁻¹.
  const Linv = new Float64Array(size * size);
  for (let i = 0; i < size; i += 1) {
    Linv[i * size + i] = 1 / L[i * size + i]!;
    for (let j = 0; j < i; j += 1) {
      let sum = 0;
      for (let k = j; k < i; k += 1) sum -= L[i * size + k]! * Linv[k * size + j]!;
      Linv[i * size + j] = sum / L[i * size + i]!;
    }
  }
  const inverse = new Float64Array(size * size);
  for (let i = 0; i < size; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = 0;
      for (let k = i; k < size; k += 1) sum += Linv[k * size + i]! * Linv[k * size + j]!;
      inverse[i * size + j] = sum;
      inverse[j * size + i] = sum;
    }
  }
  return inverse;
}
