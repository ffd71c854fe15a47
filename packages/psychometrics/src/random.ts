/**
 * Seeded pseudo-random numbers for simulations and benchmarks (never for anything secret).
 *
 * Uniforms come from mulberry32, a 32-bit generator published by Tommy Ettinger (public domain,
 * https://gist.github.com/tommyettinger/46a874533244883189143505d203312c): one 32-bit state word,
 * period 2^32, good enough statistical quality for Monte Carlo tests and tiny and fast in JavaScript.
 * Normals use the Box–Muller transform (Box & Muller 1958, "A note on the generation of random
 * normal deviates", Ann. Math. Statist. 29(2)), keeping the second deviate for the next call.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal N(0, 1). */
  normal(): number;
  /** 1 with probability p, else 0. */
  bernoulli(p: number): 0 | 1;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  let spare: number | null = null;

  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const normal = (): number => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    // 1 - next() lies in (0, 1], so the logarithm is finite.
    const u1 = 1 - next();
    const u2 = next();
    const radius = Math.sqrt(-2 * Math.log(u1));
    spare = radius * Math.sin(2 * Math.PI * u2);
    return radius * Math.cos(2 * Math.PI * u2);
  };

  return { next, normal, bernoulli: (p) => (next() < p ? 1 : 0) };
}
