import type { InsightsItem, InsightsReport } from '@exam/domain/insights';

export type Bin = { from: number; to: number; mid: number; count: number };

/** Counts of values in equal bins [from, from + width) starting at `start`; the last bin also holds its upper edge. */
export function histogram(values: readonly number[], start: number, width: number, bins: number): Bin[] {
  const result = Array.from({ length: bins }, (_, i) => {
    const from = start + i * width;
    return { from, to: from + width, mid: from + width / 2, count: 0 };
  });
  for (const value of values) {
    const index = Math.min(bins - 1, Math.max(0, Math.floor((value - start) / width)));
    result[index]!.count += 1;
  }
  return result;
}

/** A bin width from 1, 2 or 5 × 10ⁿ that splits [0, max] into at most `target` bins. */
export function niceWidth(max: number, target = 10): number {
  if (max <= 0) return 1;
  const raw = max / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * power >= raw) ?? 10;
  return step * power;
}

export const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The model the report's abilities come from (Rasch when an older report does not say). */
export const chosenModel = (report: InsightsReport) => report.model?.chosen ?? 'rasch';

/** An item's difficulty b in logits under the chosen model, and its discrimination a (1 for Rasch). */
export function itemParameters(item: InsightsItem, model: 'rasch' | '2pl'): { a: number; b: number } | null {
  if (model === '2pl') {
    const { discrimination, difficulty } = item.twoPl ?? {};
    return typeof discrimination === 'number' && typeof difficulty === 'number'
      ? { a: discrimination, b: difficulty }
      : null;
  }
  return item.raschDifficulty === null ? null : { a: 1, b: item.raschDifficulty };
}

/** P(right | θ) = σ(a(θ − b)): the 2PL on the logistic metric, Rasch when a = 1 (Birnbaum 1968; Rasch 1960). */
export const probabilityRight = (theta: number, a: number, b: number) => 1 / (1 + Math.exp(-a * (theta - b)));

/** The candidates' score as every other screen shows it (percent), falling back to the raw score. */
export const scorePercentOf = (report: InsightsReport) =>
  report.candidates.map((c) => c.result?.percentage ?? c.rawScore).filter((v): v is number => typeof v === 'number');
