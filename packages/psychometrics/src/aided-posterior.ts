import type { AbilitySet } from './aided-ability.ts';
import type { JointGroups } from './aided-groups.ts';
import type { Quadrature } from './gauss-hermite.ts';
import { softplus, type ResponseGroups } from './rasch-posterior.ts';

/**
 * The E-step machinery of the two-dimensional Rasch model (aided-ability.ts): the grid that follows the
 * latent distribution, each joint group's posterior over it, and the posterior moments that give both the
 * M-step for the latent distribution and the candidates' EAP estimates.
 *
 * Grid: θ = μ + L z with L the Cholesky factor of Σ and z on the K × K Gauss–Hermite product grid for
 * N(0, I) (gauss-hermite.ts), so Σ_k w_k f(μ + L z_k) ≈ E f(θ) for θ ~ N(μ, Σ). θ_A = μ_A + L₁₁ z₁ takes K
 * values, θ_U = μ_U + L₂₁ z₁ + L₂₂ z₂ takes K²; an aided item's counts live on the K values, an unaided
 * item's on the K².
 */

/** Floor on a variance (and on the unaided variance left after the aided one): keeps the grid non-degenerate. */
export const MIN_VARIANCE = 1e-4;

export interface Latent {
  mean: [number, number];
  /** [Var θ_A, Cov, Var θ_U]. */
  cov: [number, number, number];
}

export interface Grid {
  /** θ_A at grid row k1 (K values). */
  aided: Float64Array;
  /** θ_U at grid point k1·K + k2 (K² values). */
  unaided: Float64Array;
  /** log prior weight of each grid point. */
  logWeight: Float64Array;
}

export function gridFor(latent: Latent, quad: Quadrature): Grid {
  const K = quad.nodes.length;
  const l11 = Math.sqrt(latent.cov[0]);
  const l21 = latent.cov[1] / l11;
  const l22 = Math.sqrt(Math.max(MIN_VARIANCE, latent.cov[2] - l21 * l21));
  const aided = quad.nodes.map((z) => latent.mean[0] + l11 * z);
  const unaided = new Float64Array(K * K);
  const logWeight = new Float64Array(K * K);
  for (let k1 = 0; k1 < K; k1 += 1)
    for (let k2 = 0; k2 < K; k2 += 1) {
      unaided[k1 * K + k2] = latent.mean[1] + l21 * quad.nodes[k1]! + l22 * quad.nodes[k2]!;
      logWeight[k1 * K + k2] = Math.log(quad.weights[k1]!) + Math.log(quad.weights[k2]!);
    }
  return { aided, unaided, logWeight };
}

/**
 * den[m·M + i] = Σ over the items answered under mask m of log(1 + e^(θ_i − b_p)), the normaliser of a
 * Rasch likelihood at the M abilities θ_i: the sum over all items minus the (few) missing ones.
 */
function denominators(groups: ResponseGroups, b: Float64Array, nodes: Float64Array): Float64Array {
  const M = nodes.length;
  const full = new Float64Array(M);
  const table = new Float64Array(b.length * M);
  for (let p = 0; p < b.length; p += 1)
    for (let i = 0; i < M; i += 1) {
      const value = softplus(nodes[i]! - b[p]!);
      table[p * M + i] = value;
      full[i] = full[i]! + value;
    }
  const den = new Float64Array(groups.missing.length * M);
  groups.missing.forEach((missing, m) => {
    den.set(full, m * M);
    for (const p of missing) for (let i = 0; i < M; i += 1) den[m * M + i] = den[m * M + i]! - table[p * M + i]!;
  });
  return den;
}

/** post[g·K² + k1·K + k2]: posterior of grid point (k1, k2) for joint group g; and the marginal log-likelihood. */
export function jointPosterior(groups: JointGroups, b: Record<AbilitySet, Float64Array>, grid: Grid, K: number) {
  const K2 = K * K;
  const denA = denominators(groups.aided, b.aided, grid.aided);
  const denU = denominators(groups.unaided, b.unaided, grid.unaided);
  const G = groups.size.length;
  const post = new Float64Array(G * K2);
  let logLikelihood = 0;
  for (let g = 0; g < G; g += 1) {
    const sA = groups.aided.groupScore[g]!;
    const sU = groups.unaided.groupScore[g]!;
    const mA = groups.aided.groupMask[g]! * K;
    const mU = groups.unaided.groupMask[g]! * K2;
    let max = -Infinity;
    for (let k1 = 0; k1 < K; k1 += 1) {
      const aided = sA * grid.aided[k1]! - denA[mA + k1]!;
      for (let k2 = 0; k2 < K; k2 += 1) {
        const i = k1 * K + k2;
        const value = grid.logWeight[i]! + aided + sU * grid.unaided[i]! - denU[mU + i]!;
        post[g * K2 + i] = value;
        if (value > max) max = value;
      }
    }
    let sum = 0;
    for (let i = 0; i < K2; i += 1) {
      // Below e^(−40) ≈ 4e-18 of the largest term a node cannot change a double-precision sum: skip its exp.
      const d = post[g * K2 + i]! - max;
      const e = d < -40 ? 0 : Math.exp(d);
      post[g * K2 + i] = e;
      sum += e;
    }
    for (let i = 0; i < K2; i += 1) post[g * K2 + i] = post[g * K2 + i]! / sum;
    logLikelihood += groups.size[g]! * (max + Math.log(sum));
  }
  // The pattern-specific factor exp(−Σ x_j b_j) of the Rasch likelihood, summed over every candidate.
  for (const set of ['aided', 'unaided'] as const)
    groups[set].itemCorrect.forEach((correct, p) => (logLikelihood -= correct * b[set][p]!));
  return { post, logLikelihood };
}

export function marginalAided(post: Float64Array, G: number, K: number): Float64Array {
  const out = new Float64Array(G * K);
  for (let g = 0; g < G; g += 1)
    for (let k1 = 0; k1 < K; k1 += 1) {
      let sum = 0;
      for (let k2 = 0; k2 < K; k2 += 1) sum += post[g * K * K + k1 * K + k2]!;
      out[g * K + k1] = sum;
    }
  return out;
}

export interface Moments {
  /** Per joint group: E θ_A, E θ_U, Var θ_A, Cov, Var θ_U. */
  meanA: Float64Array;
  meanU: Float64Array;
  varA: Float64Array;
  cov: Float64Array;
  varU: Float64Array;
}

export function groupMoments(post: Float64Array, grid: Grid, G: number, K: number): Moments {
  const m: Moments = {
    meanA: new Float64Array(G),
    meanU: new Float64Array(G),
    varA: new Float64Array(G),
    cov: new Float64Array(G),
    varU: new Float64Array(G),
  };
  for (let g = 0; g < G; g += 1) {
    let a = 0;
    let u = 0;
    let aa = 0;
    let au = 0;
    let uu = 0;
    for (let k1 = 0; k1 < K; k1 += 1)
      for (let k2 = 0; k2 < K; k2 += 1) {
        const i = k1 * K + k2;
        const w = post[g * K * K + i]!;
        const ta = grid.aided[k1]!;
        const tu = grid.unaided[i]!;
        a += w * ta;
        u += w * tu;
        aa += w * ta * ta;
        au += w * ta * tu;
        uu += w * tu * tu;
      }
    m.meanA[g] = a;
    m.meanU[g] = u;
    m.varA[g] = Math.max(0, aa - a * a);
    m.cov[g] = au - a * u;
    m.varU[g] = Math.max(0, uu - u * u);
  }
  return m;
}

/** M-step for the latent distribution: the cohort's mean and covariance of (θ_A, θ_U) under the posteriors. */
export function latentMoments(groups: JointGroups, post: Float64Array, grid: Grid, K: number): Latent {
  const m = groupMoments(post, grid, groups.size.length, K);
  let n = 0;
  const s = [0, 0, 0, 0, 0];
  groups.size.forEach((size, g) => {
    n += size;
    s[0]! += size * m.meanA[g]!;
    s[1]! += size * m.meanU[g]!;
    s[2]! += size * (m.varA[g]! + m.meanA[g]! ** 2);
    s[3]! += size * (m.cov[g]! + m.meanA[g]! * m.meanU[g]!);
    s[4]! += size * (m.varU[g]! + m.meanU[g]! ** 2);
  });
  const [a, u, aa, au, uu] = s.map((v) => v / n) as [number, number, number, number, number];
  return {
    mean: [a, u],
    cov: [Math.max(MIN_VARIANCE, aa - a * a), au - a * u, Math.max(MIN_VARIANCE, uu - u * u)],
  };
}

/**
 * n[p·M + i]: expected number of candidates at node i who answered item p (the n of rasch-posterior.ts
 * expectedCounts, by answer mask: everyone at the node minus those whose mask misses p).
 */
export function expectedAnswered(groups: ResponseGroups, post: Float64Array, M: number): Float64Array {
  const byMask = new Float64Array(groups.missing.length * M);
  groups.groupMask.forEach((m, g) => {
    const size = groups.groupSize[g]!;
    for (let i = 0; i < M; i += 1) byMask[m * M + i] = byMask[m * M + i]! + size * post[g * M + i]!;
  });
  const everyone = new Float64Array(M);
  for (let m = 0; m < groups.missing.length; m += 1)
    for (let i = 0; i < M; i += 1) everyone[i] = everyone[i]! + byMask[m * M + i]!;
  const n = new Float64Array(groups.items.length * M);
  for (let p = 0; p < groups.items.length; p += 1) n.set(everyone, p * M);
  groups.missing.forEach((missing, m) => {
    for (const p of missing) for (let i = 0; i < M; i += 1) n[p * M + i] = n[p * M + i]! - byMask[m * M + i]!;
  });
  return n;
}
