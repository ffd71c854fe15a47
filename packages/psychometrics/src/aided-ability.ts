import type { Mark } from './classical.ts';
import { describeGaps, testGaps, type GapDistribution, type GapFlag } from './aided-gap.ts';
import { answeredCount, groupJointly, type JointGroups } from './aided-groups.ts';
import { gaussHermiteNormal, type Quadrature } from './gauss-hermite.ts';
import { itemInformation, maximiseItem, RASCH_REASONS } from './rasch.ts';
import type { ResponseGroups } from './rasch-posterior.ts';
import {
  expectedAnswered,
  gridFor,
  groupMoments,
  jointPosterior,
  latentMoments,
  marginalAided,
  type Latent,
  type Moments,
} from './aided-posterior.ts';

/**
 * Aided and unaided ability per candidate on one logit scale, and the gap between them.
 *
 * Model: the between-item two-dimensional Rasch model (Adams, Wilson & Wang 1997, "The multidimensional
 * random coefficients multinomial logit model", Appl. Psychol. Meas. 21(1)): each item loads on the aided or
 * on the unaided dimension only, P(x_j = 1 | θ) = σ(θ_set(j) − b_j), with (θ_A, θ_U) ~ N(μ, Σ) and μ, Σ
 * estimated (ConQuest's and mirt's `itemtype = 'Rasch'` with a two-factor model; Chalmers 2012, J. Stat.
 * Softw. 48(6)). Why this rather than two separate unidimensional fits:
 * - the gap's interval needs the posterior covariance of θ_A and θ_U. With ρ ≈ 0.7 between the two
 *   abilities, a candidate's aided answers say a lot about their unaided ability; two independent fits
 *   ignore it, shrink each θ towards its own mean, and give gap intervals of the wrong width;
 * - the Rasch slope (1 for every item) fixes the unit of both dimensions to the same logit, so θ_A − θ_U is
 *   a difference on one scale. A 2PL would need a second anchor for the unit of each dimension, and with
 *   20 items a set its slopes would be noisy; the unit question does not arise here.
 * Fitted by marginal maximum likelihood with the EM algorithm (Bock & Aitkin 1981, Psychometrika 46(4)), as
 * rasch.ts, over a 2-D Gauss–Hermite product grid moved with the latent distribution: θ = μ + L z, L the
 * Cholesky factor of Σ, z on the K × K standard-normal grid (aided-posterior.ts). M-step: per item, the
 * Newton step of rasch.ts on the expected counts at that item's dimension's nodes; μ and Σ are the
 * cohort's mean and covariance of the posterior moments.
 *
 * Identification, and what the gap means. The likelihood does not change if every aided difficulty and μ_A
 * move by the same amount (likewise for the unaided set): the location of each dimension is free, and so is
 * the mean gap. Fixing μ = 0 would make the mean gap 0 by definition. Instead the mean difficulty of each set
 * is fixed at 0 (ConQuest's `set constraints = items`): the anchor assumption is that the two sets' items
 * are equally hard *in themselves*, so a difference in success rates is credited to the candidates' ability
 * in each condition. That holds only by design: the creator must build the sets as parallel forms — pairs of
 * items testing the same skill at the same difficulty, one of each pair sat with and one without the
 * assistant (or both sets drawn at random from one pool). If the aided items are simply harder, the gap
 * understates the assistant's effect by their mean difference in difficulty, and no model can tell.
 * (A stronger design needs no such assumption: counterbalancing, where each item of a pair is sat aided by
 * some candidates and unaided by others. Each (item, condition) would then be a column of this same model,
 * with one difficulty shared by an item's two columns; that constraint, not the mean, fixes the gap.)
 * Items everyone answered right (or wrong) have no finite difficulty; dropping them would move a set's mean
 * difficulty and so the anchor, so they stay in with the extreme-score adjustment of Winsteps (Linacre,
 * Winsteps manual, EXTRSCORE = 0.3): their count of correct answers is moved 0.3 inside its range.
 * Items nobody answered are left out: they are not part of the form anyone sat.
 *
 * Per candidate, EAP estimates (posterior means, with posterior SDs as standard errors), not WLE: they are
 * finite for all-right and all-wrong sets, the joint posterior gives the gap's variance
 * Var θ_A + Var θ_U − 2 Cov(θ_A, θ_U) directly, and the interval gap ± 1.96 SD has its nominal 95% coverage
 * averaged over the cohort — the parameter-recovery check. The price is shrinkage towards the cohort: a
 * candidate's gap is pulled towards the mean gap, so a flag (aided-gap.ts) errs on the side of silence, and
 * for a candidate far from the cohort the interval covers their true gap less often than 95% (coverage is
 * nominal over the cohort, not for each candidate; bench/psychometrics-aided.ts measures the shrinkage).
 * A candidate with no answers in one set gets null for that set and for the gap (a prior guess from their
 * other set is not a measurement), though their answers still inform the fit.
 */
export type AbilitySet = 'aided' | 'unaided';

export interface AidedAbilityOptions {
  /** Gauss–Hermite points per dimension (the grid has the square of it). */
  quadraturePoints?: number;
  tolerance?: number;
  maxIterations?: number;
}

/** One ability (EAP, logits) with its posterior SD; null with a reason when the candidate has no answers in the set. */
export interface ThetaEstimate {
  theta: number | null;
  se: number | null;
  reason?: string;
}

export interface GapEstimate {
  /** θ_A − θ_U (EAP), logits. */
  estimate: number | null;
  se: number | null;
  /** 95% interval. */
  low: number | null;
  high: number | null;
  /** (estimate − cohort mean) / √(cohort variance − se²): see aided-gap.ts. */
  z: number | null;
  flag: GapFlag | null;
  reason?: string;
}

/** A candidate's figures, in the shape insights gives them (`ability: { aided, unaided, gap }`). */
export interface CandidateAbility {
  aided: ThetaEstimate;
  unaided: ThetaEstimate;
  gap: GapEstimate;
}

/** An item's difficulty on its set's scale (each set's mean difficulty is 0: the anchor). */
export interface AidedItem {
  index: number;
  set: AbilitySet;
  difficulty: number | null;
  se: number | null;
  reason?: string;
}

/** The fitted cohort distribution of (θ_A, θ_U): means relative to each set's anchor, SDs, correlation. */
export interface LatentDistribution {
  aided: { mean: number; sd: number };
  unaided: { mean: number; sd: number };
  correlation: number;
}

/** The whole fit; `reason` (and null figures everywhere) when it cannot be made. */
export interface AidedAbilityFit {
  candidates: CandidateAbility[];
  items: AidedItem[];
  population: LatentDistribution | null;
  gap: GapDistribution | null;
  converged: boolean;
  iterations: number;
  logLikelihood: number | null;
  reason?: string;
}

export const AIDED_REASONS = {
  fewCandidates: 'Aided and unaided ability need at least 2 submitted attempts.',
  noAnswers: RASCH_REASONS.noAnswers,
  noSet: 'Ability with and without the assistant needs answered questions in both sets.',
  noResponses: 'This candidate answered none of the questions in either set.',
  noAided: 'This candidate answered none of the questions sat with the assistant.',
  noUnaided: 'This candidate answered none of the questions sat without the assistant.',
  noGap: 'The gap needs answers in both sets.',
  allCorrect: `${RASCH_REASONS.allCorrect} Estimated as if 0.3 of an answer were wrong, so the set's anchor holds.`,
  noneCorrect: `${RASCH_REASONS.noneCorrect} Estimated as if 0.3 of an answer were right, so the set's anchor holds.`,
} as const;

/**
 * 31 points a dimension (961 grid points): posterior SDs of a 20-item set are about half the cohort's SD, so
 * the grid must be fine near the centre; 21 points leave errors of 2e-3 logits in the SE, 31 points 1e-4
 * (against the brute-force integration in the test).
 */
const DEFAULTS = { quadraturePoints: 31, tolerance: 1e-5, maxIterations: 2000 };
const Z95 = 1.959963984540054;
/** Winsteps' default extreme-score adjustment (EXTRSCORE). */
const EXTREME_ADJUSTMENT = 0.3;

/** Aided and unaided ability per candidate; `sets[j]` says which set item j is in (null: neither, ignored). */
export function fitAidedAbility(
  marks: readonly (readonly Mark[])[],
  sets: readonly (AbilitySet | null)[],
  options: AidedAbilityOptions = {},
): AidedAbilityFit {
  const { quadraturePoints, tolerance, maxIterations } = { ...DEFAULTS, ...options };
  const items = describeItems(marks, sets);
  const inModel = (set: AbilitySet) => items.filter((i) => i.set === set && i.reason !== AIDED_REASONS.noAnswers);
  const model = { aided: inModel('aided'), unaided: inModel('unaided') };
  const failed = (reason: string): AidedAbilityFit => ({
    candidates: marks.map(() => nullAbility(reason)),
    items,
    population: null,
    gap: null,
    converged: false,
    iterations: 0,
    logLikelihood: null,
    reason,
  });
  if (marks.length < 2) return failed(AIDED_REASONS.fewCandidates);
  if (model.aided.length === 0 || model.unaided.length === 0) return failed(AIDED_REASONS.noSet);

  const groups = groupJointly(
    marks,
    model.aided.map((i) => i.index),
    model.unaided.map((i) => i.index),
  );
  const quad = gaussHermiteNormal(quadraturePoints);
  const b = { aided: startingDifficulties(groups.aided), unaided: startingDifficulties(groups.unaided) };
  let latent: Latent = { mean: [0, 0], cov: [1, 0.5, 1] };
  let converged = false;
  let iterations = 0;
  while (iterations < maxIterations && !converged) {
    iterations += 1;
    const previous = { aided: b.aided.slice(), unaided: b.unaided.slice() };
    const grid = gridFor(latent, quad);
    const { post } = jointPosterior(groups, b, grid, quad.nodes.length);
    for (const set of ['aided', 'unaided'] as const) {
      const nodes = set === 'aided' ? grid.aided : grid.unaided;
      const setPost = set === 'aided' ? marginalAided(post, groups.size.length, quad.nodes.length) : post;
      const { n, r } = itemCounts(groups[set], setPost, nodes.length);
      b[set] = b[set].map((start, p) => maximiseItem(start, n, r, p, asNodes(nodes)));
    }
    const next = latentMoments(groups, post, grid, quad.nodes.length);
    // Re-anchor: each set's mean difficulty 0, moving its dimension's mean with it (the likelihood is unchanged).
    next.mean[0] -= centre(b.aided);
    next.mean[1] -= centre(b.unaided);
    const maxChange = Math.max(
      ...b.aided.map((v, p) => Math.abs(v - previous.aided[p]!)),
      ...b.unaided.map((v, p) => Math.abs(v - previous.unaided[p]!)),
      ...next.mean.map((m, i) => Math.abs(m - latent.mean[i]!)),
      ...next.cov.map((v, i) => Math.abs(v - latent.cov[i]!)),
    );
    latent = next;
    converged = maxChange < tolerance;
  }
  return finish(marks.length, items, groups, b, latent, quad, { converged, iterations });
}

function finish(
  candidateCount: number,
  items: AidedItem[],
  groups: JointGroups,
  b: Record<AbilitySet, Float64Array>,
  latent: Latent,
  quad: Quadrature,
  run: { converged: boolean; iterations: number },
): AidedAbilityFit {
  const K = quad.nodes.length;
  const grid = gridFor(latent, quad);
  const { post, logLikelihood } = jointPosterior(groups, b, grid, K);
  for (const set of ['aided', 'unaided'] as const) {
    const nodes = set === 'aided' ? grid.aided : grid.unaided;
    const setPost = set === 'aided' ? marginalAided(post, groups.size.length, K) : post;
    const n = expectedAnswered(groups[set], setPost, nodes.length);
    groups[set].items.forEach((j, p) => {
      const item = items.find((i) => i.index === j)!;
      item.difficulty = b[set][p]!;
      item.se = item.reason ? null : 1 / Math.sqrt(itemInformation(b[set][p]!, n, p, asNodes(nodes)));
    });
  }
  const moments = groupMoments(post, grid, groups.size.length, K);
  const candidates = Array.from({ length: candidateCount }, (_, c) => candidateAbility(groups, moments, c));
  const modelMean = latent.mean[0] - latent.mean[1];
  const modelSd = Math.sqrt(Math.max(0, latent.cov[0] - 2 * latent.cov[1] + latent.cov[2]));
  const tests = testGaps(
    candidates.map(({ gap }) => (gap.estimate === null ? null : { estimate: gap.estimate, se: gap.se! })),
    modelMean,
    modelSd,
  );
  candidates.forEach(({ gap }, c) => {
    gap.z = tests[c]?.z ?? null;
    gap.flag = tests[c]?.flag ?? null;
  });
  const estimates = candidates.flatMap(({ gap }) => (gap.estimate === null ? [] : [gap.estimate]));
  const errorVariances = candidates.flatMap(({ gap }) => (gap.se === null ? [] : [gap.se ** 2]));
  const sdA = Math.sqrt(latent.cov[0]);
  const sdU = Math.sqrt(latent.cov[2]);
  return {
    candidates,
    items,
    population: {
      aided: { mean: latent.mean[0], sd: sdA },
      unaided: { mean: latent.mean[1], sd: sdU },
      correlation: latent.cov[1] / (sdA * sdU),
    },
    gap: describeGaps(estimates, errorVariances, tests, modelMean, modelSd),
    ...run,
    logLikelihood,
  };
}

function nullAbility(reason: string): CandidateAbility {
  return {
    aided: { theta: null, se: null, reason },
    unaided: { theta: null, se: null, reason },
    gap: { estimate: null, se: null, low: null, high: null, z: null, flag: null, reason },
  };
}

function describeItems(marks: readonly (readonly Mark[])[], sets: readonly (AbilitySet | null)[]): AidedItem[] {
  const items: AidedItem[] = [];
  sets.forEach((set, j) => {
    if (set !== 'aided' && set !== 'unaided') return;
    let answered = 0;
    let correct = 0;
    for (const row of marks) {
      const mark = row[j] ?? null;
      if (mark === null) continue;
      answered += 1;
      if (mark >= 0.5) correct += 1;
    }
    const reason =
      answered === 0
        ? AIDED_REASONS.noAnswers
        : correct === answered
          ? AIDED_REASONS.allCorrect
          : correct === 0
            ? AIDED_REASONS.noneCorrect
            : undefined;
    items.push({ index: j, set, difficulty: null, se: null, ...(reason ? { reason } : {}) });
  });
  return items;
}

/** −logit of the proportion correct (extremes moved 0.3 inside), centred: the set's anchor from the start. */
function startingDifficulties(groups: ResponseGroups): Float64Array {
  const b = Float64Array.from(groups.itemCorrect, (correct, p) => {
    const answered = groups.itemAnswered[p]!;
    const c = Math.min(answered - EXTREME_ADJUSTMENT, Math.max(EXTREME_ADJUSTMENT, correct));
    return Math.log((answered - c) / c);
  });
  centre(b);
  return b;
}

/** Subtracts the mean in place and returns it. */
function centre(values: Float64Array): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  for (let p = 0; p < values.length; p += 1) values[p] = values[p]! - mean;
  return mean;
}

/** The Newton step and the information read only the abilities at the nodes; the weights are not used. */
function asNodes(nodes: Float64Array): Quadrature {
  return { nodes, weights: nodes };
}

/**
 * E-step counts for the items of one set. The Rasch M-step for b_p (maximiseItem) uses the expected correct
 * answers only through their sum over the nodes, Σ_k r_pk = the item's observed correct count C_p (each
 * candidate's posterior sums to 1): its gradient is Σ_k n_pk P_pk − C_p. So r need not be accumulated node
 * by node — for the unaided set that would cost every correct answer K² operations an iteration — and
 * r_pk = n_pk · C_p / A_p (A_p answers) has the right sum. All-right and all-wrong items get C_p moved 0.3
 * inside its range here (the extreme-score adjustment).
 */
function itemCounts(groups: ResponseGroups, post: Float64Array, M: number) {
  const n = expectedAnswered(groups, post, M);
  const r = new Float64Array(n.length);
  groups.items.forEach((_, p) => {
    const answered = groups.itemAnswered[p]!;
    const correct = Math.min(answered - EXTREME_ADJUSTMENT, Math.max(EXTREME_ADJUSTMENT, groups.itemCorrect[p]!));
    for (let i = 0; i < M; i += 1) r[p * M + i] = (n[p * M + i]! * correct) / answered;
  });
  return { n, r };
}

function candidateAbility(groups: JointGroups, m: Moments, c: number): CandidateAbility {
  const g = groups.candidateGroup[c]!;
  if (g < 0) return nullAbility(AIDED_REASONS.noResponses);
  const hasAided = answeredCount(groups.aided, g) > 0;
  const hasUnaided = answeredCount(groups.unaided, g) > 0;
  const aided = hasAided
    ? { theta: m.meanA[g]!, se: Math.sqrt(m.varA[g]!) }
    : { theta: null, se: null, reason: AIDED_REASONS.noAided };
  const unaided = hasUnaided
    ? { theta: m.meanU[g]!, se: Math.sqrt(m.varU[g]!) }
    : { theta: null, se: null, reason: AIDED_REASONS.noUnaided };
  if (!hasAided || !hasUnaided)
    return {
      aided,
      unaided,
      gap: { estimate: null, se: null, low: null, high: null, z: null, flag: null, reason: AIDED_REASONS.noGap },
    };
  const estimate = m.meanA[g]! - m.meanU[g]!;
  const se = Math.sqrt(Math.max(0, m.varA[g]! + m.varU[g]! - 2 * m.cov[g]!));
  return {
    aided,
    unaided,
    gap: { estimate, se, low: estimate - Z95 * se, high: estimate + Z95 * se, z: null, flag: null },
  };
}
