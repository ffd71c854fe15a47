import { gaussHermiteNormal, type Quadrature } from './gauss-hermite.ts';
import {
  computePosteriors,
  eapByGroup,
  expectedCounts,
  groupResponses,
  logisticPosteriors,
  type ResponseGroups,
} from './rasch-posterior.ts';
import type { Mark } from './classical.ts';

/**
 * Rasch (1PL) model fitted by marginal maximum likelihood with the EM algorithm of Bock & Aitkin (1981,
 * "Marginal maximum likelihood estimation of item parameters: application of an EM algorithm",
 * Psychometrika 46(4)): abilities θ ~ N(0, 1) (which identifies the scale, so difficulties need no
 * centring), discrimination fixed at 1, the ability integral taken by Gauss–Hermite quadrature.
 *
 * E-step: each candidate group's posterior over the quadrature nodes gives, per item j and node k, the
 * expected number of candidates n_jk who answered j and r_jk who answered it correctly.
 * M-step: per item, Newton–Raphson on Σ_k r_jk·log P_jk + (n_jk − r_jk)·log(1 − P_jk), P_jk = σ(q_k − b_j):
 *   b ← b + Σ_k (n_jk P_jk − r_jk) / Σ_k n_jk P_jk (1 − P_jk).
 * Stops when no difficulty moves more than `tolerance` logits in one EM cycle.
 *
 * Items that every candidate answered correctly (or nobody did) have an infinite maximum-likelihood
 * difficulty; they are left out of the fit and reported as not estimable. Leaving them out is the same as
 * b = ∓∞ for the abilities, because such an item then has likelihood 1 for every θ.
 * Abilities are EAP estimates (posterior mean) with the posterior SD as their standard error.
 */
export interface RaschOptions {
  quadraturePoints?: number;
  tolerance?: number;
  maxIterations?: number;
}

export interface RaschItem {
  index: number;
  difficulty: number | null;
  /** Asymptotic standard error 1 / √(expected information) at convergence. */
  se: number | null;
  reason?: string;
}

export interface RaschAbility {
  theta: number | null;
  se: number | null;
  reason?: string;
}

export interface RaschFit {
  items: RaschItem[];
  abilities: RaschAbility[];
  converged: boolean;
  iterations: number;
  logLikelihood: number | null;
  reason?: string;
}

export const RASCH_REASONS = {
  fewCandidates: 'The Rasch model needs at least 2 submitted attempts.',
  noAnswers: 'No graded answers to this question yet.',
  allCorrect: 'Every candidate answered correctly, so the difficulty is below the measurable range.',
  noneCorrect: 'No candidate answered correctly, so the difficulty is above the measurable range.',
  noEstimableItems: 'No question separates the candidates (each was answered all right or all wrong).',
  noInformation: 'None of this candidate’s graded answers is on a question that separates candidates.',
} as const;

/** Why an item's difficulty cannot be estimated from these counts (no answers, all right, all wrong), if it cannot. */
export function unestimableReason(answered: number, correct: number): string | undefined {
  if (answered === 0) return RASCH_REASONS.noAnswers;
  if (correct === answered) return RASCH_REASONS.allCorrect;
  if (correct === 0) return RASCH_REASONS.noneCorrect;
  return undefined;
}

const DEFAULTS = { quadraturePoints: 41, tolerance: 1e-5, maxIterations: 500 };
const NEWTON_STEPS = 20;
const MAX_NEWTON_STEP = 2;

export function fitRasch(marks: readonly (readonly Mark[])[], itemCount: number, options: RaschOptions = {}): RaschFit {
  const { quadraturePoints, tolerance, maxIterations } = { ...DEFAULTS, ...options };
  const all = Array.from({ length: itemCount }, (_, j) => j);
  const counts = groupResponses(marks, all);
  const items: RaschItem[] = all.map((j) => {
    const answered = counts.itemAnswered[j]!;
    const correct = counts.itemCorrect[j]!;
    const reason = unestimableReason(answered, correct);
    return { index: j, difficulty: null, se: null, ...(reason ? { reason } : {}) };
  });
  const noAbilities = (reason: string) => marks.map(() => ({ theta: null, se: null, reason }));
  if (marks.length < 2) {
    for (const item of items) item.reason = RASCH_REASONS.fewCandidates;
    return {
      items,
      abilities: noAbilities(RASCH_REASONS.fewCandidates),
      converged: false,
      iterations: 0,
      logLikelihood: null,
      reason: RASCH_REASONS.fewCandidates,
    };
  }
  const estimable = items.filter((i) => i.reason === undefined).map((i) => i.index);
  if (estimable.length === 0) {
    return {
      items,
      abilities: noAbilities(RASCH_REASONS.noEstimableItems),
      converged: false,
      iterations: 0,
      logLikelihood: null,
      reason: RASCH_REASONS.noEstimableItems,
    };
  }
  const quad = gaussHermiteNormal(quadraturePoints);
  const groups = groupResponses(marks, estimable);
  const b = startingDifficulties(groups);
  let converged = false;
  let iterations = 0;
  while (iterations < maxIterations && !converged) {
    iterations += 1;
    const { n, r } = expectedCounts(groups, computePosteriors(groups, b, quad).post, quad);
    let maxChange = 0;
    for (let p = 0; p < estimable.length; p += 1) {
      const next = maximiseItem(b[p]!, n, r, p, quad);
      maxChange = Math.max(maxChange, Math.abs(next - b[p]!));
      b[p] = next;
    }
    converged = maxChange < tolerance;
  }
  const { post, logLikelihood } = computePosteriors(groups, b, quad);
  const { n } = expectedCounts(groups, post, quad);
  estimable.forEach((j, p) => {
    const item = items[j]!;
    item.difficulty = b[p]!;
    item.se = 1 / Math.sqrt(itemInformation(b[p]!, n, p, quad));
  });
  return { items, abilities: abilitiesFrom(groups, post, quad), converged, iterations, logLikelihood };
}

/**
 * EAP abilities from known difficulties (null = not estimable, skipped), optionally over a subset of
 * items — e.g. one topic's questions for a topical ability — and optionally with 2PL discriminations
 * (null = not estimable, skipped; candidates are then grouped by whole response pattern).
 */
export function eapAbilities(
  marks: readonly (readonly Mark[])[],
  difficulties: readonly (number | null)[],
  itemSubset?: readonly number[],
  quadraturePoints = DEFAULTS.quadraturePoints,
  discriminations?: readonly (number | null)[],
): RaschAbility[] {
  const known = (value: number | null | undefined) => value !== null && value !== undefined;
  const items = (itemSubset ?? difficulties.map((_, j) => j)).filter(
    (j) => known(difficulties[j]) && (!discriminations || known(discriminations[j])),
  );
  if (items.length === 0) return marks.map(() => ({ theta: null, se: null, reason: RASCH_REASONS.noEstimableItems }));
  const quad = gaussHermiteNormal(quadraturePoints);
  if (!discriminations) {
    const groups = groupResponses(marks, items);
    const b = Float64Array.from(items, (j) => difficulties[j]!);
    return abilitiesFrom(groups, computePosteriors(groups, b, quad).post, quad);
  }
  const groups = groupResponses(marks, items, 'pattern');
  const a = Float64Array.from(items, (j) => discriminations[j]!);
  const d = Float64Array.from(items, (j) => -discriminations[j]! * difficulties[j]!);
  return abilitiesFrom(groups, logisticPosteriors(groups, a, d, quad).post, quad);
}

export function abilitiesFrom(groups: ResponseGroups, post: Float64Array, quad: Quadrature): RaschAbility[] {
  const { mean, sd } = eapByGroup(post, groups.groupMask.length, quad);
  return Array.from(groups.candidateGroup, (g) =>
    g < 0 ? { theta: null, se: null, reason: RASCH_REASONS.noInformation } : { theta: mean[g]!, se: sd[g]! },
  );
}

/** −logit of the proportion correct: the difficulty a candidate of ability 0 would face. */
function startingDifficulties(groups: ResponseGroups): Float64Array {
  return Float64Array.from(groups.itemCorrect, (correct, p) => {
    const pc = correct / groups.itemAnswered[p]!;
    return Math.log((1 - pc) / pc);
  });
}

/** One item's M-step: Newton–Raphson on its expected counts at `quad.nodes` (the abilities; the weights are unused). */
export function maximiseItem(start: number, n: Float64Array, r: Float64Array, p: number, quad: Quadrature): number {
  const K = quad.nodes.length;
  let b = start;
  for (let step = 0; step < NEWTON_STEPS; step += 1) {
    let gradient = 0;
    let information = 0;
    for (let k = 0; k < K; k += 1) {
      const prob = 1 / (1 + Math.exp(b - quad.nodes[k]!));
      const nk = n[p * K + k]!;
      gradient += nk * prob - r[p * K + k]!;
      information += nk * prob * (1 - prob);
    }
    if (information <= 0) break;
    const delta = Math.max(-MAX_NEWTON_STEP, Math.min(MAX_NEWTON_STEP, gradient / information));
    b += delta;
    if (Math.abs(delta) < 1e-10) break;
  }
  return b;
}

/** Expected Fisher information Σ_k n_k P_k (1 − P_k) of an item of difficulty b at `quad.nodes`. */
export function itemInformation(b: number, n: Float64Array, p: number, quad: Quadrature): number {
  const K = quad.nodes.length;
  let information = 0;
  for (let k = 0; k < K; k += 1) {
    const prob = 1 / (1 + Math.exp(b - quad.nodes[k]!));
    information += n[p * K + k]! * prob * (1 - prob);
  }
  return information;
}
