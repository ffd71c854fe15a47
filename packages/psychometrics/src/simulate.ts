import { createRandom } from './random.ts';

/** Rasch-model responses for tests and benchmarks: θ ~ N(0, 1), P(correct) = σ(θ − b). */
export interface SimulatedCohort {
  thetas: Float64Array;
  marks: (0 | 1)[][];
}

export function simulateRasch(candidates: number, difficulties: readonly number[], seed: number): SimulatedCohort {
  const rng = createRandom(seed);
  const thetas = new Float64Array(candidates);
  const marks: (0 | 1)[][] = [];
  for (let c = 0; c < candidates; c += 1) {
    const theta = rng.normal();
    thetas[c] = theta;
    marks.push(difficulties.map((b) => rng.bernoulli(1 / (1 + Math.exp(b - theta)))));
  }
  return { thetas, marks };
}

/** 2PL responses: θ ~ N(0, 1), P(correct) = σ(a_j (θ − b_j)) on the logistic metric. */
export function simulateTwoPl(
  candidates: number,
  discriminations: readonly number[],
  difficulties: readonly number[],
  seed: number,
): SimulatedCohort {
  if (discriminations.length !== difficulties.length)
    throw new RangeError('Each item needs one discrimination and one difficulty');
  const rng = createRandom(seed);
  const thetas = new Float64Array(candidates);
  const marks: (0 | 1)[][] = [];
  for (let c = 0; c < candidates; c += 1) {
    const theta = rng.normal();
    thetas[c] = theta;
    marks.push(difficulties.map((b, j) => rng.bernoulli(1 / (1 + Math.exp(-discriminations[j]! * (theta - b))))));
  }
  return { thetas, marks };
}

/** Evenly spaced difficulties from `low` to `high` logits. */
export function spreadDifficulties(count: number, low: number, high: number): number[] {
  return Array.from({ length: count }, (_, j) =>
    count === 1 ? (low + high) / 2 : low + ((high - low) * j) / (count - 1),
  );
}

export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i += 1) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i += 1) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return sab / Math.sqrt(saa * sbb);
}
