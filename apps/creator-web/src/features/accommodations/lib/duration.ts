import { i18n } from '../../../i18n/index.ts';

/** Minutes with at most one decimal: 90, 67.5. */
export function formatMinutes(minutes: number): string {
  return i18n.t('accommodations:minutes', { minutes: Math.round(minutes * 10) / 10 });
}

/** A candidate's duration: the exam's × the factor + the extra minutes (docs/product.md#cohorts). */
export function accommodatedMinutes(
  baseMinutes: number,
  override: { extraMinutes?: number | null | undefined; timeFactor?: number | null | undefined },
): number {
  return baseMinutes * (override.timeFactor ?? 1) + (override.extraMinutes ?? 0);
}

/** '60 min → 90 min', or the base alone when nothing changes it; null for an exam without a timer. */
export function durationChange(
  timer: { timerEnabled: boolean; timerMinutes: number },
  override: { extraMinutes?: number | null | undefined; timeFactor?: number | null | undefined },
): string | null {
  if (!timer.timerEnabled) return null;
  const base = timer.timerMinutes;
  const after = accommodatedMinutes(base, override);
  return after === base ? formatMinutes(base) : `${formatMinutes(base)} → ${formatMinutes(after)}`;
}
