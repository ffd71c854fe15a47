/**
 * Upper tail of the chi-square distribution, P(X ≥ x) for X ~ χ²(df), as the regularised upper incomplete
 * gamma function Q(df/2, x/2).
 *
 * Q(s, z) is evaluated as in Press et al., Numerical Recipes 3rd ed. §6.2: by the series for P = 1 − Q when
 * z < s + 1 and by the Lentz continued fraction for Q otherwise, each until the relative change falls below
 * 1e-15. ln Γ uses the Lanczos approximation with g = 7 and 9 coefficients (the widely used set from
 * Godfrey's tables; relative error about 1e-15 for real arguments > 0.5).
 */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const MAX_TERMS = 1000;
const EPS = 1e-15;
const TINY = 1e-300;

export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError('logGamma needs a positive argument');
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i += 1) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Regularised upper incomplete gamma Q(s, z) = Γ(s, z) / Γ(s), s > 0, z ≥ 0. */
export function gammaQ(s: number, z: number): number {
  if (!(s > 0) || !(z >= 0)) throw new RangeError('gammaQ needs s > 0 and z ≥ 0');
  if (z === 0) return 1;
  const logPrefix = -z + s * Math.log(z) - logGamma(s);
  if (z < s + 1) {
    // P(s, z) = e^(−z) z^s / Γ(s) · Σ_n z^n / (s (s+1) … (s+n)).
    let term = 1 / s;
    let sum = term;
    for (let n = 1; n < MAX_TERMS; n += 1) {
      term *= z / (s + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return Math.max(0, 1 - sum * Math.exp(logPrefix));
  }
  // Q(s, z) = e^(−z) z^s / Γ(s) · 1 / (z + 1 − s − 1·(1 − s) / (z + 3 − s − 2·(2 − s) / (z + 5 − s − …))).
  let b = z + 1 - s;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i += 1) {
    const an = -i * (i - s);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.min(1, Math.exp(logPrefix) * h);
}

/** P(X ≥ statistic) for X ~ χ²(df); df a positive integer. */
export function chiSquareSurvival(statistic: number, df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError('Degrees of freedom must be a positive integer');
  if (!Number.isFinite(statistic)) throw new RangeError('The chi-square statistic must be finite');
  return statistic <= 0 ? 1 : gammaQ(df / 2, statistic / 2);
}
