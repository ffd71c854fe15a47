import { describe, expect, it } from 'vitest';
import { createRandom } from './random.ts';

describe('createRandom', () => {
  it('repeats the same sequence when given the same seed', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const seqA = Array.from({ length: 5 }, () => a.next());
    const seqB = Array.from({ length: 5 }, () => b.next());
    expect(seqA).toEqual(seqB);
    expect(createRandom(43).next()).not.toBe(seqA[0]);
  });

  it('draws uniforms in [0, 1) with mean near one half', () => {
    const rng = createRandom(7);
    let sum = 0;
    let outside = 0;
    for (let i = 0; i < 100_000; i += 1) {
      const u = rng.next();
      if (u < 0 || u >= 1) outside += 1;
      sum += u;
    }
    expect(outside).toBe(0);
    expect(sum / 100_000).toBeCloseTo(0.5, 2);
  });

  it('draws normals with mean 0 and variance 1 when sampled many times', () => {
    const rng = createRandom(11);
    const n = 200_000;
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < n; i += 1) {
      const z = rng.normal();
      sum += z;
      sumSq += z * z;
    }
    const mean = sum / n;
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(sumSq / n - mean * mean - 1)).toBeLessThan(0.02);
  });

  it('returns 1 from bernoulli about p of the time', () => {
    const rng = createRandom(3);
    let ones = 0;
    for (let i = 0; i < 50_000; i += 1) ones += rng.bernoulli(0.3);
    expect(ones / 50_000).toBeCloseTo(0.3, 2);
  });
});
