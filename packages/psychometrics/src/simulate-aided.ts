import { createRandom } from './random.ts';

/**
 * Responses under the between-item two-dimensional Rasch model of aided-ability.ts, for tests and
 * benchmarks: (θ_A, θ_U) bivariate normal with the given means, SDs and correlation (θ_U = μ_U + σ_U z₁,
 * θ_A = μ_A + σ_A (ρ z₁ + √(1 − ρ²) z₂)); the first `aided.length` columns are the aided items.
 */
export interface AidedCohortSpec {
  candidates: number;
  aided: readonly number[];
  unaided: readonly number[];
  mean: { aided: number; unaided: number };
  sd: { aided: number; unaided: number };
  correlation: number;
  seed: number;
}

export interface SimulatedAidedCohort {
  aided: Float64Array;
  unaided: Float64Array;
  marks: (0 | 1)[][];
  sets: ('aided' | 'unaided')[];
}

export function simulateAidedCohort(spec: AidedCohortSpec): SimulatedAidedCohort {
  const rng = createRandom(spec.seed);
  const aided = new Float64Array(spec.candidates);
  const unaided = new Float64Array(spec.candidates);
  const rho = spec.correlation;
  const marks = Array.from({ length: spec.candidates }, (_, c) => {
    const z1 = rng.normal();
    const z2 = rng.normal();
    unaided[c] = spec.mean.unaided + spec.sd.unaided * z1;
    aided[c] = spec.mean.aided + spec.sd.aided * (rho * z1 + Math.sqrt(1 - rho * rho) * z2);
    return [
      ...spec.aided.map((b) => rng.bernoulli(1 / (1 + Math.exp(b - aided[c]!)))),
      ...spec.unaided.map((b) => rng.bernoulli(1 / (1 + Math.exp(b - unaided[c]!)))),
    ];
  });
  const sets = [...spec.aided.map(() => 'aided' as const), ...spec.unaided.map(() => 'unaided' as const)];
  return { aided, unaided, marks, sets };
}
