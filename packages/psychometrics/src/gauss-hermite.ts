/**
 * Gauss–Hermite quadrature rescaled for the standard normal density: Σ w_k f(z_k) ≈ E[f(Z)], Z ~ N(0, 1),
 * exact when f is a polynomial of degree ≤ 2n − 1.
 *
 * Nodes are the roots of the physicists' Hermite polynomial H_n (weight e^(−x²)), found by Newton's
 * method on the orthonormal recurrence
 *   p_0 = π^(−1/4), p_j(x) = x·√(2/j)·p_{j−1}(x) − √((j−1)/j)·p_{j−2}(x),  p_n'(x) = √(2n)·p_{n−1}(x),
 * with weights w = 2 / p_n'(x)² (Golub & Welsch 1969, "Calculation of Gauss quadrature rules", Math.
 * Comp. 23; the same scheme as Press et al., Numerical Recipes 3rd ed. §4.6). Starting guesses for the
 * largest roots are the asymptotic ones of Stroud & Secrest, "Gaussian Quadrature Formulas" (1966);
 * each further root starts from extrapolating the two previous ones. Then z = √2·x and w ← w/√π.
 */
export interface Quadrature {
  nodes: Float64Array;
  weights: Float64Array;
}

const MAX_NEWTON = 100;
const EPS = 1e-14;

function orthonormalHermite(n: number, x: number): { p: number; dp: number } {
  let p1 = Math.PI ** -0.25;
  let p2 = 0;
  for (let j = 1; j <= n; j += 1) {
    const p3 = p2;
    p2 = p1;
    p1 = x * Math.sqrt(2 / j) * p2 - Math.sqrt((j - 1) / j) * p3;
  }
  return { p: p1, dp: Math.sqrt(2 * n) * p2 };
}

export function gaussHermiteNormal(n: number): Quadrature {
  if (!Number.isInteger(n) || n < 1 || n > 200)
    throw new RangeError('Quadrature points must be an integer from 1 to 200');
  const x = new Float64Array(n);
  const w = new Float64Array(n);
  const half = Math.floor((n + 1) / 2);
  let z = 0;
  for (let i = 0; i < half; i += 1) {
    // Roots are found largest first; x[i] is the i-th largest, mirrored to x[n−1−i].
    if (i === 0) z = Math.sqrt(2 * n + 1) - 1.85575 * (2 * n + 1) ** (-1 / 6);
    else if (i === 1) z -= (1.14 * n ** 0.426) / z;
    else if (i === 2) z = 1.86 * z - 0.86 * x[0]!;
    else if (i === 3) z = 1.91 * z - 0.91 * x[1]!;
    else z = 2 * z - x[i - 2]!;
    let dp = 0;
    for (let iter = 0; iter < MAX_NEWTON; iter += 1) {
      const value = orthonormalHermite(n, z);
      dp = value.dp;
      const step = value.p / dp;
      z -= step;
      if (Math.abs(step) <= EPS * Math.max(1, Math.abs(z))) break;
    }
    dp = orthonormalHermite(n, z).dp;
    x[i] = z;
    x[n - 1 - i] = -z;
    w[i] = 2 / (dp * dp);
    w[n - 1 - i] = w[i]!;
  }
  if (n % 2 === 1) x[half - 1] = 0;
  const nodes = new Float64Array(n);
  const weights = new Float64Array(n);
  // Ascending order reads naturally in tests and posterior plots.
  for (let k = 0; k < n; k += 1) {
    nodes[k] = Math.SQRT2 * x[n - 1 - k]!;
    weights[k] = w[n - 1 - k]! / Math.sqrt(Math.PI);
  }
  return { nodes, weights };
}
