import { formatDuration } from '@exam/domain/grading';
import type { InsightsReport } from '@exam/domain/insights';
import { Tooltip } from '@exam/ui/tooltip';
import { cn } from '@exam/ui/lib/cn';
import { i18n } from '../../../i18n/index.ts';

const round1 = (v: number) => (Math.round(v * 10) / 10).toString();
export const formats = {
  percent: (v: number) => `${round1(v)}%`,
  /** Fractions 0–1 (facility, guessability) shown as percent. */
  fractionPercent: (v: number) => `${round1(100 * v)}%`,
  decimal: (v: number) => (Math.round(v * 100) / 100).toFixed(2),
  count: (v: number) => String(v),
  /** The app's one time-spent format. */
  seconds: formatDuration,
} as const;

export const notAvailable = () => i18n.t('insights:figure.notAvailable');

/** Looks up a figure's hover text and why it is missing, by the keys @exam/domain/insights documents. */
export function explain(report: InsightsReport, explanationKey: string, reasonKey: string) {
  return { explanation: report.explanations[explanationKey], reason: report.reasons[reasonKey] };
}

type FigureProps = {
  value: number | null;
  format?: (v: number) => string;
  explanation?: string | undefined;
  reason?: string | undefined;
  className?: string;
};

/**
 * A number of the report with its explanation on hover. A figure that could not be computed is '—'
 * followed by the reason (visually hidden here, in the tooltip on hover or focus).
 */
export function Figure({ value, format = formats.percent, explanation, reason, className }: FigureProps) {
  const missing = value === null;
  const why = reason ?? notAvailable();
  const tip = missing ? (explanation ? `${why} ${explanation}` : why) : explanation;
  const content = (
    <span
      tabIndex={tip ? 0 : undefined}
      className={cn(
        'tabular-nums',
        tip && 'cursor-help underline decoration-dotted decoration-slate-300 underline-offset-4',
        className,
      )}
    >
      {missing ? '—' : format(value)}
      {missing && <span className="sr-only"> ({why})</span>}
    </span>
  );
  return tip ? <Tooltip content={<span className="block max-w-xs">{tip}</span>}>{content}</Tooltip> : content;
}
