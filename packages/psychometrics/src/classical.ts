import { known, median, unknown, ZERO_TOLERANCE, type Stat } from './stat.ts';

/**
 * Classical test statistics with the definitions of Moodle's quiz statistics report:
 * https://docs.moodle.org/dev/Quiz_statistics_calculations (formulas) and Moodle's
 * question/classes/statistics/questions/calculator.php and mod/quiz/report/statistics/statistics/
 * calculator.php (what the code actually does, which this file follows where the two differ).
 * Every item is worth 1 mark, so a candidate's total T is their number of correct answers.
 *
 * Ungraded answers (`null`: a manual question the grader has not marked yet):
 * - item statistics use only the candidates with a mark for that item (Moodle likewise computes each
 *   item over the attempts that have it, its own count `s`); "rest of test" for them is their total
 *   minus this item;
 * - totals and every test-level statistic (mean … standard error, Cronbach's alpha) count a pending
 *   mark as 0, i.e. they describe the scores the candidates hold right now. Once grading is complete
 *   both views coincide.
 */
export type Mark = number | null;

export interface ItemStatistics {
  index: number;
  /** Candidates with a mark for this item. */
  graded: number;
  /** Mean mark / max mark (fraction 0–1). */
  facility: Stat;
  /** Sample standard deviation of the item's marks (n − 1). */
  sd: Stat;
  /** 100 × r(item, rest of test). */
  discriminationIndex: Stat;
  /** 100 × Cov(item, rest) / the largest covariance possible with the same marginals. */
  discriminativeEfficiency: Stat;
  /** 100 × √Cov(item, total) / Σ √Cov(item', total) over items with non-negative covariance. */
  effectiveWeight: Stat;
  randomGuessScore: number;
}

export interface TestStatistics {
  candidates: number;
  maxScore: number;
  mean: Stat;
  median: Stat;
  sd: Stat;
  skewness: Stat;
  kurtosis: Stat;
  /** Moodle's coefficient of internal consistency as a fraction (Moodle shows it ×100). */
  cronbachAlpha: Stat;
  /** 100 × √(1 − alpha), percent. */
  errorRatio: Stat;
  /** SD × √(1 − alpha), in marks. */
  standardError: Stat;
}

export interface ClassicalStatistics {
  test: TestStatistics;
  items: ItemStatistics[];
  /** Each candidate's total, pending marks counted 0. */
  totals: Float64Array;
}

export const REASONS = {
  noCandidates: 'No submitted attempts yet.',
  fewCandidates: (n: number) => `Needs at least ${n} submitted attempts.`,
  sameTotal: 'Every candidate has the same total score, so the spread is zero.',
  fewItems: 'Needs at least 2 questions.',
  noGraded: 'No graded answers to this question yet.',
  fewGraded: 'Needs at least 2 graded answers to this question.',
  sameItemMark: 'Every candidate got the same mark on this question, so it cannot discriminate.',
  sameRest: 'Candidates have the same score on the rest of the test.',
  negativeCovariance:
    'Marks on this question vary against the total score; Moodle gives such a question no effective weight.',
  noPositiveCovariance: 'No question co-varies positively with the total score.',
} as const;

export function computeTotals(marks: readonly (readonly Mark[])[], itemCount: number): Float64Array {
  const totals = new Float64Array(marks.length);
  marks.forEach((row, c) => {
    let sum = 0;
    for (let j = 0; j < itemCount; j += 1) sum += row[j] ?? 0;
    totals[c] = sum;
  });
  return totals;
}

export function computeClassicalStatistics(
  marks: readonly (readonly Mark[])[],
  itemCount: number,
  randomGuessScores: readonly number[] = [],
): ClassicalStatistics {
  const totals = computeTotals(marks, itemCount);
  const columns = toColumns(marks, itemCount);
  const items: ItemStatistics[] = [];
  const covWithTotal: (number | null)[] = [];
  let sumVarianceForAlpha = 0;
  for (let j = 0; j < itemCount; j += 1) {
    const column = columns.subarray(j * marks.length, (j + 1) * marks.length);
    const { stats, covarianceWithTotal, varianceAsZero } = itemStatistics(column, totals, j, randomGuessScores[j] ?? 0);
    items.push(stats);
    covWithTotal.push(covarianceWithTotal);
    sumVarianceForAlpha += varianceAsZero;
  }
  assignEffectiveWeights(items, covWithTotal);
  return { test: testStatistics(totals, itemCount, sumVarianceForAlpha), items, totals };
}

/** Item-major copy of the marks (NaN = pending), so each item's pass reads contiguous memory. */
function toColumns(marks: readonly (readonly Mark[])[], itemCount: number): Float64Array {
  const n = marks.length;
  const columns = new Float64Array(n * itemCount);
  marks.forEach((row, c) => {
    for (let j = 0; j < itemCount; j += 1) columns[j * n + c] = row[j] ?? Number.NaN;
  });
  return columns;
}

function itemStatistics(column: Float64Array, totals: Float64Array, j: number, randomGuessScore: number) {
  const n = column.length;
  const x = new Float64Array(n);
  const rest = new Float64Array(n);
  const total = new Float64Array(n);
  let s = 0;
  let sumAsZero = 0;
  let sumSqAsZero = 0;
  for (let c = 0; c < n; c += 1) {
    const mark = column[c]!;
    if (Number.isNaN(mark)) continue;
    const t = totals[c]!;
    sumAsZero += mark;
    sumSqAsZero += mark * mark;
    x[s] = mark;
    rest[s] = t - mark;
    total[s] = t;
    s += 1;
  }
  // Sample variance of the item with pending marks as 0, to match the totals used for alpha.
  const varianceAsZero = n > 1 ? (sumSqAsZero - (sumAsZero * sumAsZero) / n) / (n - 1) : 0;

  const base = { index: j, graded: s, randomGuessScore, effectiveWeight: unknown(REASONS.fewGraded) };
  if (s === 0) {
    const none = unknown(REASONS.noGraded);
    return {
      stats: {
        ...base,
        facility: none,
        sd: none,
        discriminationIndex: none,
        discriminativeEfficiency: none,
        effectiveWeight: none,
      },
      covarianceWithTotal: null,
      varianceAsZero,
    };
  }
  const xMean = mean(x, s);
  const restMean = mean(rest, s);
  const totalMean = mean(total, s);
  // Facility = mean mark / max mark; max mark is 1 (Moodle: markaverage / maxmark).
  const facility = known(xMean);
  if (s < 2) {
    const few = unknown(REASONS.fewGraded);
    return {
      stats: { ...base, facility, sd: few, discriminationIndex: few, discriminativeEfficiency: few },
      covarianceWithTotal: null,
      varianceAsZero,
    };
  }
  let varX = 0;
  let varRest = 0;
  let cov = 0;
  let covTotal = 0;
  for (let i = 0; i < s; i += 1) {
    const dx = x[i]! - xMean;
    const dr = rest[i]! - restMean;
    varX += dx * dx;
    varRest += dr * dr;
    cov += dx * dr;
    covTotal += dx * (total[i]! - totalMean);
  }
  // Moodle's covariancemax: pair the i-th smallest mark with the i-th smallest rest score (sorting in
  // place: the paired order is no longer needed).
  const sortedX = x.subarray(0, s).sort();
  const sortedRest = rest.subarray(0, s).sort();
  let covMax = 0;
  for (let i = 0; i < s; i += 1) covMax += (sortedX[i]! - xMean) * (sortedRest[i]! - restMean);
  const d = s - 1;
  varX /= d;
  varRest /= d;
  cov /= d;
  covMax /= d;
  covTotal /= d;

  const zeroReason = varX < ZERO_TOLERANCE ? REASONS.sameItemMark : varRest < ZERO_TOLERANCE ? REASONS.sameRest : null;
  const discriminationIndex = zeroReason ? unknown(zeroReason) : known((100 * cov) / Math.sqrt(varX * varRest));
  const discriminativeEfficiency =
    zeroReason || Math.abs(covMax) < ZERO_TOLERANCE
      ? unknown(zeroReason ?? REASONS.sameRest)
      : known((100 * cov) / covMax);
  return {
    stats: { ...base, facility, sd: known(Math.sqrt(varX)), discriminationIndex, discriminativeEfficiency },
    covarianceWithTotal: covTotal,
    varianceAsZero,
  };
}

/** Moodle: items with negative Cov(item, total) get none; the rest share 100 in proportion to √Cov. */
function assignEffectiveWeights(items: ItemStatistics[], covWithTotal: (number | null)[]): void {
  let sumSqrt = 0;
  for (const c of covWithTotal) if (c !== null && c >= 0) sumSqrt += Math.sqrt(c);
  items.forEach((item, j) => {
    const c = covWithTotal[j] ?? null;
    if (c === null) return;
    if (c < 0) item.effectiveWeight = unknown(REASONS.negativeCovariance);
    else if (sumSqrt < ZERO_TOLERANCE) item.effectiveWeight = unknown(REASONS.noPositiveCovariance);
    else item.effectiveWeight = known((100 * Math.sqrt(c)) / sumSqrt);
  });
}

function mean(values: Float64Array, count: number): number {
  let sum = 0;
  for (let i = 0; i < count; i += 1) sum += values[i]!;
  return sum / count;
}

/**
 * Test statistics (Moodle's quiz calculator): with S candidates and m_k = Σ(T − T̄)^k / S,
 * k2 = S·m2/(S−1) (sample variance; SD = √k2), k3 = S²·m3/((S−1)(S−2)), skewness = k3 / k2^(3/2),
 * k4 = S²·((S+1)·m4 − 3(S−1)·m2²)/((S−1)(S−2)(S−3)), kurtosis = k4 / k2² (excess kurtosis, 0 for a
 * normal distribution), alpha = P/(P−1) · (1 − Σ V(item) / k2), error ratio = 100·√(1 − alpha),
 * standard error = SD · √(1 − alpha).
 */
function testStatistics(totals: Float64Array, itemCount: number, sumItemVariance: number): TestStatistics {
  const s = totals.length;
  const result: TestStatistics = {
    candidates: s,
    maxScore: itemCount,
    mean: unknown(REASONS.noCandidates),
    median: unknown(REASONS.noCandidates),
    sd: unknown(REASONS.noCandidates),
    skewness: unknown(REASONS.noCandidates),
    kurtosis: unknown(REASONS.noCandidates),
    cronbachAlpha: unknown(REASONS.noCandidates),
    errorRatio: unknown(REASONS.noCandidates),
    standardError: unknown(REASONS.noCandidates),
  };
  if (s === 0) return result;
  let sum = 0;
  for (const t of totals) sum += t;
  const avg = sum / s;
  result.mean = known(avg);
  result.median = known(median(totals)!);
  const few2 = unknown(REASONS.fewCandidates(2));
  if (s < 2) {
    Object.assign(result, {
      sd: few2,
      skewness: unknown(REASONS.fewCandidates(3)),
      kurtosis: unknown(REASONS.fewCandidates(4)),
    });
    Object.assign(result, { cronbachAlpha: few2, errorRatio: few2, standardError: few2 });
    return result;
  }
  let p2 = 0;
  let p3 = 0;
  let p4 = 0;
  for (const t of totals) {
    const d = t - avg;
    const d2 = d * d;
    p2 += d2;
    p3 += d2 * d;
    p4 += d2 * d2;
  }
  const m2 = p2 / s;
  const m3 = p3 / s;
  const m4 = p4 / s;
  const k2 = (s * m2) / (s - 1);
  const sd = Math.sqrt(k2);
  result.sd = known(sd);
  const flat = k2 < ZERO_TOLERANCE;
  const same = unknown(REASONS.sameTotal);
  if (s < 3) result.skewness = unknown(REASONS.fewCandidates(3));
  else if (flat) result.skewness = same;
  else result.skewness = known((s * s * m3) / ((s - 1) * (s - 2)) / k2 ** 1.5);
  if (s < 4) result.kurtosis = unknown(REASONS.fewCandidates(4));
  else if (flat) result.kurtosis = same;
  else
    result.kurtosis = known(
      (s * s * ((s + 1) * m4 - 3 * (s - 1) * m2 * m2)) / ((s - 1) * (s - 2) * (s - 3)) / (k2 * k2),
    );

  const alphaMissing = itemCount < 2 ? unknown(REASONS.fewItems) : flat ? same : null;
  if (alphaMissing) {
    Object.assign(result, { cronbachAlpha: alphaMissing, errorRatio: alphaMissing, standardError: alphaMissing });
    return result;
  }
  const alpha = (itemCount / (itemCount - 1)) * (1 - sumItemVariance / k2);
  // alpha ≤ 1 mathematically; clamp only the rounding residue under the square root.
  const oneMinus = Math.max(0, 1 - alpha);
  result.cronbachAlpha = known(alpha);
  result.errorRatio = known(100 * Math.sqrt(oneMinus));
  result.standardError = known(sd * Math.sqrt(oneMinus));
  return result;
}
