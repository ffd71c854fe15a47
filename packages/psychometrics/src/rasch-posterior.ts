import type { Quadrature } from './gauss-hermite.ts';

/**
 * Candidate grouping and quadrature posteriors for the Rasch model (and, with `by: 'pattern'` and
 * discriminations, for the 2PL model: twopl.ts).
 *
 * Under the Rasch model P(x=1 | θ) = 1 / (1 + e^(−(θ − b))), the likelihood of a response vector over
 * the answered items A is exp(r·θ − Σ_{j∈A} x_j·b_j) / Π_{j∈A} (1 + e^(θ − b_j)), r = raw score on A.
 * The factor exp(−Σ x_j b_j) does not depend on θ, so the posterior over θ depends only on (A, r):
 * raw score is a sufficient statistic. Candidates are therefore grouped by (set of answered items, raw
 * score) — with no missing answers that is at most J + 1 groups however many candidates there are.
 *
 * Under the 2PL model the sufficient statistic is the discrimination-weighted score Σ a_j x_j, which
 * changes with the estimates, so candidates are grouped by their whole response pattern instead (the
 * same pattern, the same posterior); `groupCorrect[g][p]` is then 0 or the group's size.
 */
export interface ResponseGroups {
  /** The item columns used (indices into the original mark rows). */
  items: readonly number[];
  /** Unanswered positions (into `items`) of each answer pattern; usually few, so sums run over these. */
  missing: Int32Array[];
  groupMask: number[];
  groupScore: number[];
  groupSize: number[];
  /** groupCorrect[g][p]: how many members of group g answered items[p] correctly. */
  groupCorrect: Float64Array[];
  /** Group of each candidate; −1 when the candidate answered none of `items`. */
  candidateGroup: Int32Array;
  /** Correct answers per position over all candidates. */
  itemCorrect: Float64Array;
  itemAnswered: Float64Array;
}

/**
 * Dichotomous model: a mark of 0.5 or more counts as correct; null (ungraded, or not drawn from a pool)
 * counts as missing, never as wrong. `by` chooses what makes two candidates share a group: their set of
 * answered items and raw score (Rasch), or their set of answered items and every answer (2PL).
 */
export function groupResponses(
  marks: readonly (readonly (number | null)[])[],
  items: readonly number[],
  by: 'score' | 'pattern' = 'score',
): ResponseGroups {
  const J = items.length;
  const maskIds = new Map<string, number>();
  const groupIds = new Map<number | string, number>();
  const groups: ResponseGroups = {
    items,
    missing: [],
    groupMask: [],
    groupScore: [],
    groupSize: [],
    groupCorrect: [],
    candidateGroup: new Int32Array(marks.length),
    itemCorrect: new Float64Array(J),
    itemAnswered: new Float64Array(J),
  };
  const x = new Int8Array(J);
  marks.forEach((row, c) => {
    let missing = '';
    let pattern = '';
    let answered = 0;
    let score = 0;
    for (let p = 0; p < J; p += 1) {
      const mark = row[items[p]!] ?? null;
      if (mark === null) {
        missing += `${p},`;
        x[p] = -1;
        if (by === 'pattern') pattern += '.';
        continue;
      }
      answered += 1;
      x[p] = mark >= 0.5 ? 1 : 0;
      if (by === 'pattern') pattern += x[p] === 1 ? '1' : '0';
      score += x[p]!;
      groups.itemAnswered[p]! += 1;
      groups.itemCorrect[p]! += x[p]!;
    }
    if (answered === 0) {
      groups.candidateGroup[c] = -1;
      return;
    }
    let maskId = maskIds.get(missing);
    if (maskId === undefined) {
      maskId = groups.missing.length;
      maskIds.set(missing, maskId);
      const positions: number[] = [];
      for (let p = 0; p < J; p += 1) if (x[p] === -1) positions.push(p);
      groups.missing.push(Int32Array.from(positions));
    }
    // The pattern already spells out the missing answers, so it alone identifies the group.
    const key = by === 'pattern' ? pattern : maskId * (J + 1) + score;
    let g = groupIds.get(key);
    if (g === undefined) {
      g = groups.groupMask.length;
      groupIds.set(key, g);
      groups.groupMask.push(maskId);
      groups.groupScore.push(score);
      groups.groupSize.push(0);
      groups.groupCorrect.push(new Float64Array(J));
    }
    groups.groupSize[g]! += 1;
    const correct = groups.groupCorrect[g]!;
    for (let p = 0; p < J; p += 1) if (x[p] === 1) correct[p]! += 1;
    groups.candidateGroup[c] = g;
  });
  return groups;
}

/** log(1 + e^x) without overflow. */
export function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

export interface Posteriors {
  /** post[g·K + k]: posterior probability of node k for group g. */
  post: Float64Array;
  /** Marginal log-likelihood Σ_c log ∫ L_c(θ) φ(θ) dθ (by quadrature). */
  logLikelihood: number;
}

/** `difficulties[p]` is the difficulty of items[p]; discrimination 1 (the Rasch model). */
export function computePosteriors(groups: ResponseGroups, difficulties: Float64Array, quad: Quadrature): Posteriors {
  const slopes = new Float64Array(difficulties.length).fill(1);
  return logisticPosteriors(
    groups,
    slopes,
    difficulties.map((b) => -b),
    quad,
  );
}

/**
 * Posteriors under P(x_p = 1 | θ) = σ(a_p·θ + d_p) (slope–intercept form; difficulty b = −d/a).
 * log L_g(q_k) = s_g·q_k + Σ x_p d_p − Σ_{p answered} log(1 + e^(a_p q_k + d_p)), with s_g = Σ_p a_p x_p
 * the weighted score. Each group must be homogeneous in s_g: grouped by raw score when every a_p is equal,
 * by whole pattern otherwise.
 */
export function logisticPosteriors(
  groups: ResponseGroups,
  slopes: Float64Array,
  intercepts: Float64Array,
  quad: Quadrature,
): Posteriors {
  const K = quad.nodes.length;
  const J = groups.items.length;
  const nodes = quad.nodes;
  const logW = quad.weights.map(Math.log);
  // softplusTable[p·K + k] = log(1 + e^(a_p q_k + d_p)); a pattern's denominator is the sum over its
  // answered items = the sum over all items minus its (few) missing ones.
  const softplusTable = new Float64Array(J * K);
  const full = new Float64Array(K);
  for (let p = 0; p < J; p += 1) {
    for (let k = 0; k < K; k += 1) {
      const value = softplus(slopes[p]! * quad.nodes[k]! + intercepts[p]!);
      softplusTable[p * K + k] = value;
      full[k] = full[k]! + value;
    }
  }
  const den = new Float64Array(groups.missing.length * K);
  groups.missing.forEach((missing, m) => {
    const offset = m * K;
    den.set(full, offset);
    for (let i = 0; i < missing.length; i += 1) {
      const pOff = missing[i]! * K;
      for (let k = 0; k < K; k += 1) den[offset + k] = den[offset + k]! - softplusTable[pOff + k]!;
    }
  });
  const G = groups.groupMask.length;
  const post = new Float64Array(G * K);
  let logLikelihood = 0;
  for (let g = 0; g < G; g += 1) {
    const m = groups.groupMask[g]!;
    const size = groups.groupSize[g]!;
    const correct = groups.groupCorrect[g]!;
    // Dividing once keeps a Rasch group's weighted score its exact raw score.
    let weighted = 0;
    for (let p = 0; p < J; p += 1) if (correct[p]! > 0) weighted += slopes[p]! * correct[p]!;
    const s = weighted / size;
    const gOff = g * K;
    const mOff = m * K;
    let max = -Infinity;
    for (let k = 0; k < K; k += 1) {
      const a = logW[k]! + s * nodes[k]! - den[mOff + k]!;
      post[gOff + k] = a;
      if (a > max) max = a;
    }
    let sum = 0;
    for (let k = 0; k < K; k += 1) {
      const e = Math.exp(post[gOff + k]! - max);
      post[gOff + k] = e;
      sum += e;
    }
    for (let k = 0; k < K; k += 1) post[gOff + k] = post[gOff + k]! / sum;
    logLikelihood += size * (max + Math.log(sum));
  }
  // The pattern-specific factor exp(Σ x_p d_p), summed over every candidate.
  for (let p = 0; p < J; p += 1) logLikelihood += intercepts[p]! * groups.itemCorrect[p]!;
  return { post, logLikelihood };
}

/**
 * E-step counts: n[p·K + k] and r[p·K + k], the expected number of candidates at node k who answered
 * item p and who answered it correctly. Unanswered items add nothing (missing is not wrong).
 */
export function expectedCounts(groups: ResponseGroups, post: Float64Array, quad: Quadrature) {
  const K = quad.nodes.length;
  const J = groups.items.length;
  const n = new Float64Array(J * K);
  const r = new Float64Array(J * K);
  const byMask = new Float64Array(groups.missing.length * K);
  for (let g = 0; g < groups.groupMask.length; g += 1) {
    const m = groups.groupMask[g]!;
    const size = groups.groupSize[g]!;
    const correct = groups.groupCorrect[g]!;
    const gOff = g * K;
    const mOff = m * K;
    for (let k = 0; k < K; k += 1) byMask[mOff + k] = byMask[mOff + k]! + size * post[gOff + k]!;
    for (let p = 0; p < J; p += 1) {
      const c = correct[p]!;
      if (c === 0) continue;
      const pOff = p * K;
      for (let k = 0; k < K; k += 1) r[pOff + k] = r[pOff + k]! + c * post[gOff + k]!;
    }
  }
  // n_pk = expected candidates at node k who answered p = all of them minus those whose pattern misses p.
  const everyone = new Float64Array(K);
  for (let m = 0; m < groups.missing.length; m += 1)
    for (let k = 0; k < K; k += 1) everyone[k] = everyone[k]! + byMask[m * K + k]!;
  for (let p = 0; p < J; p += 1) n.set(everyone, p * K);
  groups.missing.forEach((missing, m) => {
    for (let i = 0; i < missing.length; i += 1) {
      const pOff = missing[i]! * K;
      for (let k = 0; k < K; k += 1) n[pOff + k] = n[pOff + k]! - byMask[m * K + k]!;
    }
  });
  return { n, r };
}

/** EAP (posterior mean) and posterior SD per group. */
export function eapByGroup(
  post: Float64Array,
  groupCount: number,
  quad: Quadrature,
): { mean: Float64Array; sd: Float64Array } {
  const K = quad.nodes.length;
  const mean = new Float64Array(groupCount);
  const sd = new Float64Array(groupCount);
  for (let g = 0; g < groupCount; g += 1) {
    let m1 = 0;
    let m2 = 0;
    for (let k = 0; k < K; k += 1) {
      const w = post[g * K + k]!;
      const q = quad.nodes[k]!;
      m1 += w * q;
      m2 += w * q * q;
    }
    mean[g] = m1;
    sd[g] = Math.sqrt(Math.max(0, m2 - m1 * m1));
  }
  return { mean, sd };
}
