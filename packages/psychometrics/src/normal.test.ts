import { describe, expect, it } from 'vitest';
import { erf, normalCdf } from './normal.ts';

describe('normalCdf', () => {
  // Reference values from standard normal tables (A&S table 26.1).
  it.each([
    [0, 0.5],
    [1, 0.8413447],
    [-1, 0.1586553],
    [1.96, 0.9750021],
    [-2.5, 0.0062097],
    [3, 0.9986501],
  ])('returns Φ(%f) ≈ %f within 2e-7', (x, expected) => {
    expect(Math.abs(normalCdf(x) - expected)).toBeLessThan(2e-7);
  });

  it('is odd-symmetric in erf and complementary in Φ', () => {
    for (const x of [0.1, 0.7, 1.3, 2.2]) {
      expect(erf(-x)).toBeCloseTo(-erf(x), 12);
      expect(normalCdf(x) + normalCdf(-x)).toBeCloseTo(1, 12);
    }
  });
});
