import { describe, expect, it } from 'vitest';
import { gaussHermiteNormal } from './gauss-hermite.ts';

/** E[Z^k] for Z ~ N(0, 1): 0 for odd k, (k − 1)!! for even k. */
function normalMoment(k: number): number {
  if (k % 2 === 1) return 0;
  let m = 1;
  for (let j = k - 1; j > 1; j -= 2) m *= j;
  return m;
}

describe('gaussHermiteNormal', () => {
  it('gives the textbook 3-point rule: 0 with weight 2/3 and ±√3 with weight 1/6', () => {
    const { nodes, weights } = gaussHermiteNormal(3);
    expect(nodes[0]).toBeCloseTo(-Math.sqrt(3), 12);
    expect(nodes[1]).toBe(0);
    expect(nodes[2]).toBeCloseTo(Math.sqrt(3), 12);
    expect(weights[0]).toBeCloseTo(1 / 6, 12);
    expect(weights[1]).toBeCloseTo(2 / 3, 12);
  });

  it.each([1, 2, 5, 21, 31, 41, 61])('has weights summing to 1 and ascending symmetric nodes with %i points', (n) => {
    const { nodes, weights } = gaussHermiteNormal(n);
    expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    for (let k = 0; k < n; k += 1) {
      expect(nodes[k]).toBeCloseTo(-nodes[n - 1 - k]!, 10);
      if (k > 0) expect(nodes[k]!).toBeGreaterThan(nodes[k - 1]!);
      expect(weights[k]!).toBeGreaterThan(0);
    }
  });

  it.each([5, 21, 41])('integrates every monomial up to degree 2n − 1 exactly with %i points', (n) => {
    const { nodes, weights } = gaussHermiteNormal(n);
    // Relative error: high moments are large ((2n−2)!! ≈ 1e24 for n = 21), so compare in ratio.
    for (let k = 0; k <= Math.min(2 * n - 1, 30); k += 1) {
      let sum = 0;
      for (let i = 0; i < n; i += 1) sum += weights[i]! * nodes[i]! ** k;
      const expected = normalMoment(k);
      if (expected === 0) expect(Math.abs(sum)).toBeLessThan(1e-9 * normalMoment(k + 1));
      else expect(Math.abs(sum / expected - 1)).toBeLessThan(1e-10);
    }
  });

  it('rejects a non-integer or out-of-range number of points', () => {
    expect(() => gaussHermiteNormal(0)).toThrow(RangeError);
    expect(() => gaussHermiteNormal(2.5)).toThrow(RangeError);
  });
});
