/** A figure that may be impossible to compute: then value is null and reason says why (never NaN). */
export interface Stat {
  value: number | null;
  reason?: string;
}

export const known = (value: number): Stat => ({ value });
export const unknown = (reason: string): Stat => ({ value: null, reason });

/** Variances and covariances below this are treated as zero: they come from rounding, not data. */
export const ZERO_TOLERANCE = 1e-12;

export function median(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
