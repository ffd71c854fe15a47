import { normalCdf } from './normal.ts';

/**
 * The cohort's distribution of the aided − unaided gap, and which candidates' gaps lie far outside it.
 *
 * Two distributions are reported, because they answer different questions:
 * - `model`: the fitted latent distribution of the true gap, N(m, s²) with m = μ_A − μ_U and
 *   s² = σ_A² + σ_U² − 2σ_AU (aided-ability.ts). It is the cohort's own spread, free of measurement error.
 * - `estimates`: mean, SD and quantiles of the candidates' EAP gaps, the numbers a chart of the candidates
 *   shows. EAPs are shrunk towards m, so their SD is smaller than s (Var EAP = s² − E[posterior variance]).
 *
 * Flag rule. Under the model a candidate's true gap g ~ N(m, s²), and their EAP gap ĝ has (in the normal
 * case exactly) mean m and variance s² − v, v the candidate's posterior variance of the gap; equivalently
 * z = (ĝ − m) / √(s² − v) = (g̃ − m) / √(s² + e²), with g̃ the unshrunk estimate and e its standard error. So z
 * compares the candidate's gap with the cohort's distribution *plus* their own measurement error: a candidate
 * measured on few items needs a larger apparent gap to be flagged. Two-sided p = 2(1 − Φ(|z|)).
 * Across a cohort some |z| > 1.96 happen by chance (5% of a cohort that fits the model perfectly), so a fixed
 * cut would flag dozens of ordinary candidates in a large exam. The flags instead control the false discovery
 * rate at q = 5% (Benjamini & Hochberg 1995, "Controlling the false discovery rate", J. R. Stat. Soc. B
 * 57(1)): of the candidates flagged, at most about 5% are expected to be ordinary, and a cohort that fits the
 * model gets no flag at all 95% of the time, whatever its size. A candidate with almost no information on
 * the gap (v ≈ s²) has ĝ ≈ m and no evidence either way: z = 0.
 *
 * How much a single candidate's gap can say is the gap's reliability, reported beside the distribution:
 * the empirical (EAP) reliability Var(ĝ) / (Var(ĝ) + mean v) (mirt's `empirical_rxx`; Chalmers 2012). A
 * difference of two abilities is much less reliable than either (θ_A and θ_U correlate): with 20 items a
 * set and ρ = 0.7 it is about 0.45, so only gaps several logits from the cohort's are flagged. Longer sets
 * are the remedy, not a looser rule.
 */
export type GapFlag = 'above' | 'below';

export interface GapTest {
  z: number;
  p: number;
  /** 'above': aided − unaided far above the cohort's (leans on the assistant more than peers); 'below' the reverse. */
  flag: GapFlag | null;
}

export interface GapQuantiles {
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
}

export interface GapDistribution {
  /** The fitted latent distribution of the true gap (logits). */
  model: { mean: number; sd: number };
  /** The candidates' EAP gaps; null when no candidate has one. */
  estimates: { count: number; mean: number; sd: number | null; quantiles: GapQuantiles } | null;
  /** Empirical reliability of the candidates' gaps (0–1); null with fewer than 2 gaps. */
  reliability: number | null;
  flagged: { above: number; below: number };
}

export const FALSE_DISCOVERY_RATE = 0.05;

/** z, p and flag per candidate gap (null stays null): see the rule above. */
export function testGaps(
  gaps: readonly ({ estimate: number; se: number } | null)[],
  modelMean: number,
  modelSd: number,
  q = FALSE_DISCOVERY_RATE,
): (GapTest | null)[] {
  const tests = gaps.map((gap): GapTest | null => {
    if (gap === null) return null;
    const spread = modelSd * modelSd - gap.se * gap.se;
    if (spread <= 1e-9 * Math.max(1, modelSd * modelSd)) return { z: 0, p: 1, flag: null };
    const z = (gap.estimate - modelMean) / Math.sqrt(spread);
    return { z, p: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))), flag: null };
  });
  const tested = tests.filter((t): t is GapTest => t !== null);
  const sorted = tested.map((t) => t.p).sort((a, b) => a - b);
  // Benjamini–Hochberg: the largest i with p_(i) ≤ i·q/n; every p up to p_(i) is a discovery.
  let cutoff = -1;
  sorted.forEach((p, i) => {
    if (p <= ((i + 1) * q) / sorted.length) cutoff = p;
  });
  for (const t of tested) if (t.p <= cutoff) t.flag = t.z > 0 ? 'above' : 'below';
  return tests;
}

/** Sample quantile, type 7 of Hyndman & Fan (1996, Am. Stat. 50(4)), R's default: linear between order statistics. */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** The gap's cohort distribution from the fitted model and the candidates' estimates and flags. */
export function describeGaps(
  estimates: readonly number[],
  errorVariances: readonly number[],
  tests: readonly (GapTest | null)[],
  modelMean: number,
  modelSd: number,
): GapDistribution {
  const flagged = { above: 0, below: 0 };
  for (const t of tests) if (t?.flag) flagged[t.flag] += 1;
  const model = { mean: modelMean, sd: modelSd };
  const n = estimates.length;
  if (n === 0) return { model, estimates: null, reliability: null, flagged };
  const sorted = Float64Array.from(estimates).sort();
  const mean = estimates.reduce((a, b) => a + b, 0) / n;
  const sd = n < 2 ? null : Math.sqrt(estimates.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const quantiles = {
    p5: quantile(sorted, 0.05),
    p25: quantile(sorted, 0.25),
    p50: quantile(sorted, 0.5),
    p75: quantile(sorted, 0.75),
    p95: quantile(sorted, 0.95),
  };
  const spread = sd === null ? null : sd * sd;
  const error = errorVariances.reduce((a, b) => a + b, 0) / n;
  const reliability = spread === null || spread + error <= 0 ? null : spread / (spread + error);
  return { model, estimates: { count: n, mean, sd, quantiles }, reliability, flagged };
}
