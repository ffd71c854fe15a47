import type { BadgeTone } from '@exam/ui/badge';
import type { ResultSummary } from '@exam/domain/result';

export type ListScore = { percent: number | null; text: string; tone: BadgeTone };

/**
 * The score a results list shows: the stored score when graded, otherwise the share of graded
 * answers that are correct, or 'Not Graded'. Colours: ≥ 70 green, ≥ 50 yellow, below red, gray
 * when nothing is graded.
 */
export function listScore(
  result: Pick<ResultSummary, 'isGraded' | 'score' | 'correctCount' | 'gradedCount'>,
): ListScore {
  const percent =
    result.isGraded && result.score !== null
      ? result.score
      : result.gradedCount > 0
        ? Math.round((100 * result.correctCount) / result.gradedCount)
        : null;
  if (percent === null) return { percent, text: 'Not Graded', tone: 'neutral' };
  return { percent, text: `${percent}%`, tone: percent >= 70 ? 'success' : percent >= 50 ? 'warning' : 'danger' };
}

const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** 'MMM d, yyyy HH:mm', e.g. 'Jan 5, 2025 14:30'; 'N/A' when missing or unparseable. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  const parts = Object.fromEntries(dateTime.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.month} ${parts.day}, ${parts.year} ${parts.hour}:${parts.minute}`;
}

/** 'Xh Ym' for the submissions list; 'N/A' when there is no time. */
export function formatHoursMinutes(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 'N/A';
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** 'Nm Ss' under an hour, 'Xh Ym' from an hour up: compact for tables. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return 'N/A';
  if (seconds >= 3600) return formatHoursMinutes(seconds);
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m ${whole % 60}s`;
}
