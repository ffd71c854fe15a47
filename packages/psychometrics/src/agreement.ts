import { createRandom } from './random.ts';

/**
 * Agreement between two raters of one question's answers: the AI's suggested points and the human grader's
 * points, so a creator can tell per question whether the suggestions can be trusted.
 *
 * - Exact agreement: the share of answers given the same points.
 * - Cohen's κ (Cohen 1960, "A coefficient of agreement for nominal scales", Educ. Psychol. Meas. 20(1)):
 *   κ = (po − pe) / (1 − pe), po the observed agreement, pe the agreement expected from the two raters'
 *   marginal frequencies. The categories are the union of the points either rater gave.
 * - Quadratic-weighted κ (Cohen 1968, "Weighted kappa", Psychol. Bull. 70(4)): κw = 1 − Σ wᵢⱼ Oᵢⱼ / Σ wᵢⱼ Eᵢⱼ,
 *   O the observed and E the expected (product of marginals) proportions, wᵢⱼ = (xᵢ − xⱼ)² / (x_max − x_min)²
 *   where xᵢ is the points value of category i. When the observed points are evenly spaced (0, 1, 2, 3 or
 *   0, ½, 1) this is exactly Cohen's (i − j)² / (k − 1)² over the category ranks. When a value is missing
 *   between them (0, 1, 5) weighting by rank would count 1 → 5 as close as 0 → 1; weighting by the points
 *   themselves keeps the distance a grader means, and equals the rank weights over the full range min..max,
 *   since a category nobody used adds nothing to either sum. Quadratic weights on the scores are those of
 *   Fleiss & Cohen 1973 ("The equivalence of weighted kappa and the intraclass correlation coefficient", Educ.
 *   Psychol. Meas. 33(3)); statsmodels' cohens_kappa(wt='quadratic') and Maple's
 *   EssayTools[QuadraticWeightedKappa] weigh the same way. 1000 pairs take about 80 ms, nearly all bootstrap.
 * - A 95% interval for κw: percentile bootstrap over answers (Efron & Tibshirani 1993, "An Introduction to the
 *   Bootstrap", ch. 13), BOOTSTRAP_RESAMPLES resamples from a generator seeded with BOOTSTRAP_SEED, so the same
 *   pairs always give the same interval.
 * - Mean absolute difference in points.
 */

/** Resamples of the bootstrap: enough for stable 2.5% and 97.5% percentiles (Efron & Tibshirani 1993, §19.3). */
export const BOOTSTRAP_RESAMPLES = 2000;
/** Fixed seed of the bootstrap's mulberry32 generator (random.ts): the interval is a function of the pairs. */
export const BOOTSTRAP_SEED = 0x6b617070;
/**
 * Fewer answers than this get no interval: a resample of so few pairs takes only a handful of distinct values,
 * so its percentiles say little (Efron & Tibshirani 1993, ch. 13, on the bootstrap's small-sample behaviour).
 */
export const MIN_PAIRS_FOR_INTERVAL = 10;
/** Points closer than this are the same category (guards against 0.1 + 0.2 ≠ 0.3). */
const POINT_RESOLUTION = 1e6;

export interface RatingPair {
  /** The AI's suggested points. */
  suggested: number;
  /** The human grader's points. */
  human: number;
}

export const AGREEMENT_REASONS = {
  noPairs: 'no answer has both a suggestion and a human mark yet',
  oneCategory:
    'both raters gave every answer the same points: agreement expected by chance is 1, so κ is 0/0 and undefined',
  oneSided:
    'one rater gave every answer the same points: κ is 0 by construction however often the two agree ' +
    '(the kappa paradox, Feinstein & Cicchetti 1990); read exact agreement instead',
  tooFewPairs: `fewer than ${MIN_PAIRS_FOR_INTERVAL} answers with both marks: too few for an interval`,
} as const;

export interface Agreement {
  n: number;
  exactAgreement: number | null;
  kappa: number | null;
  weightedKappa: number | null;
  weightedKappaLow: number | null;
  weightedKappaHigh: number | null;
  meanAbsoluteDifference: number | null;
  /** Why a figure is null, or why a figure of 0 says little (one rater used a single mark). */
  notes: { kappa?: string; weightedKappa?: string; interval?: string };
}

/** The pairs as category indices over the union of observed points (ascending), and those points. */
interface Coded {
  values: number[];
  suggested: Int32Array;
  human: Int32Array;
}

const roundPoints = (x: number) => Math.round(x * POINT_RESOLUTION) / POINT_RESOLUTION;

function code(pairs: readonly RatingPair[]): Coded {
  for (const { suggested, human } of pairs) {
    if (!Number.isFinite(suggested) || !Number.isFinite(human)) throw new RangeError('points must be finite numbers');
  }
  const values = [...new Set(pairs.flatMap((p) => [roundPoints(p.suggested), roundPoints(p.human)]))].sort(
    (a, b) => a - b,
  );
  const index = new Map(values.map((v, i) => [v, i]));
  return {
    values,
    suggested: Int32Array.from(pairs, (p) => index.get(roundPoints(p.suggested))!),
    human: Int32Array.from(pairs, (p) => index.get(roundPoints(p.human))!),
  };
}

/**
 * Quadratic-weighted κ of the pairs picked by `rows` (indices into the coded pairs; all of them when omitted),
 * from the marginals alone in O(n + k²). Returns null when the expected disagreement is 0 (every pick in one
 * category on both sides).
 */
function weightedKappaOf(coded: Coded, rows?: Int32Array): number | null {
  const { values, suggested, human } = coded;
  const k = values.length;
  const n = rows ? rows.length : suggested.length;
  const rowTotals = new Float64Array(k);
  const colTotals = new Float64Array(k);
  let observed = 0;
  for (let r = 0; r < n; r++) {
    const p = rows ? rows[r]! : r;
    const i = suggested[p]!;
    const j = human[p]!;
    rowTotals[i]!++;
    colTotals[j]!++;
    const d = values[i]! - values[j]!;
    observed += d * d;
  }
  let expected = 0;
  for (let i = 0; i < k; i++) {
    if (rowTotals[i] === 0) continue;
    for (let j = 0; j < k; j++) {
      const d = values[i]! - values[j]!;
      expected += (rowTotals[i]! * colTotals[j]! * d * d) / n;
    }
  }
  // The (x_max − x_min)² normalisation of the weights cancels in the ratio.
  return expected <= 0 ? null : 1 - observed / expected;
}

function unweightedKappa(coded: Coded): number | null {
  const { values, suggested, human } = coded;
  const n = suggested.length;
  const rowTotals = new Float64Array(values.length);
  const colTotals = new Float64Array(values.length);
  let agree = 0;
  for (let p = 0; p < n; p++) {
    rowTotals[suggested[p]!]!++;
    colTotals[human[p]!]!++;
    if (suggested[p] === human[p]) agree++;
  }
  const po = agree / n;
  let pe = 0;
  for (let i = 0; i < values.length; i++) pe += (rowTotals[i]! / n) * (colTotals[i]! / n);
  return pe >= 1 ? null : (po - pe) / (1 - pe);
}

/** Linear interpolation between order statistics (Hyndman & Fan 1996, definition 7). */
function quantile(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** The percentile bootstrap 95% interval of κw, or the reason there is none. */
export function bootstrapWeightedKappa(
  pairs: readonly RatingPair[],
  resamples = BOOTSTRAP_RESAMPLES,
  seed = BOOTSTRAP_SEED,
): { low: number; high: number } | { reason: string } {
  const coded = code(pairs);
  const n = pairs.length;
  if (n < MIN_PAIRS_FOR_INTERVAL) return { reason: AGREEMENT_REASONS.tooFewPairs };
  if (coded.values.length < 2) return { reason: AGREEMENT_REASONS.oneCategory };
  const random = createRandom(seed);
  const rows = new Int32Array(n);
  const estimates = new Float64Array(resamples);
  let defined = 0;
  for (let b = 0; b < resamples; b++) {
    for (let r = 0; r < n; r++) rows[r] = Math.floor(random.next() * n);
    const value = weightedKappaOf(coded, rows);
    if (value !== null) estimates[defined++] = value;
  }
  // A resample whose picks all carry one mark has no κw and is left out. With at least two marks among n pairs
  // that happens with probability at most (1 − 1/n)ⁿ < 1/e (every pick missing the one odd pair), so the
  // interval always rests on most of the resamples.
  const sorted = estimates.subarray(0, defined).sort();
  return { low: quantile(sorted, 0.025), high: quantile(sorted, 0.975) };
}

/**
 * Quadratic-weighted κ alone (no bootstrap), for a figure shown without its interval (the collaboration profile's
 * agreement on insights): null with no pairs or when the expected disagreement is 0.
 */
export function quadraticWeightedKappa(pairs: readonly RatingPair[]): number | null {
  return pairs.length === 0 ? null : weightedKappaOf(code(pairs));
}

/** Every agreement figure of one question's (suggested, human) pairs. Pure and deterministic. */
export function computeAgreement(pairs: readonly RatingPair[]): Agreement {
  const n = pairs.length;
  if (n === 0) {
    const reason = AGREEMENT_REASONS.noPairs;
    return {
      n,
      exactAgreement: null,
      kappa: null,
      weightedKappa: null,
      weightedKappaLow: null,
      weightedKappaHigh: null,
      meanAbsoluteDifference: null,
      notes: { kappa: reason, weightedKappa: reason, interval: reason },
    };
  }
  const coded = code(pairs);
  let agree = 0;
  let absolute = 0;
  for (let p = 0; p < n; p++) {
    if (coded.suggested[p] === coded.human[p]) agree++;
    absolute += Math.abs(coded.values[coded.suggested[p]!]! - coded.values[coded.human[p]!]!);
  }
  const kappa = unweightedKappa(coded);
  const weightedKappa = weightedKappaOf(coded);
  const notes: Agreement['notes'] = {};
  const oneSided = new Set(coded.suggested).size === 1 || new Set(coded.human).size === 1;
  if (kappa === null) {
    notes.kappa = notes.weightedKappa = notes.interval = AGREEMENT_REASONS.oneCategory;
  } else if (oneSided) {
    notes.kappa = notes.weightedKappa = AGREEMENT_REASONS.oneSided;
  }
  let low: number | null = null;
  let high: number | null = null;
  if (weightedKappa !== null) {
    const interval = bootstrapWeightedKappa(pairs);
    if ('reason' in interval) notes.interval = interval.reason;
    else ({ low, high } = interval);
  }
  return {
    n,
    exactAgreement: agree / n,
    kappa,
    weightedKappa,
    weightedKappaLow: low,
    weightedKappaHigh: high,
    meanAbsoluteDifference: absolute / n,
    notes,
  };
}
