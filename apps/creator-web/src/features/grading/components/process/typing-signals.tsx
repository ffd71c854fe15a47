import type { TypingSignals } from '@exam/domain/timeline';
import { Button } from '@exam/ui/button';
import { Eye } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatElapsed } from '../../lib/replay-model.ts';

type Percentiles = NonNullable<TypingSignals['percentiles']>;

/** One figure: its value, where it stands in the cohort, and what it means in one sentence. */
function Signal({
  label,
  value,
  cohort,
  explain,
}: {
  label: string;
  value: ReactNode;
  cohort?: ReactNode;
  explain: string;
}) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="text-sm font-medium tabular-nums text-ink">{value}</dd>
      {cohort && <dd className="text-sm text-ink">{cohort}</dd>}
      <dd className="text-xs text-muted">{explain}</dd>
    </div>
  );
}

/**
 * Typing figures of one answer beside the exam's cohort, in plain words (typing-signals.ts cites the research they
 * come from). Review signals: nothing here changes a score or says that anyone cheated.
 */
export function TypingSignalsView({
  signals,
  startedAt,
  onWatch,
}: {
  signals: TypingSignals;
  startedAt: string;
  onWatch?: ((t: number) => void) | undefined;
}) {
  const { t } = useTranslation('process');
  const percentiles: Partial<Percentiles> = signals.percentiles ?? {};
  const cohort = (key: keyof Percentiles, sentence: 'speed' | 'pause' | 'revision' | 'burst') => {
    const p = percentiles[key];
    return p === null || p === undefined
      ? t('signals.noCohort')
      : t(`signals.${sentence}.percentile`, { p: Math.round(p) });
  };
  const start = Date.parse(startedAt);
  const { transcriptionLike: transcription } = signals;

  return (
    <div className="flex flex-col gap-3">
      <div>
        <h5 className="text-sm font-semibold text-ink">{t('signals.title')}</h5>
        <p className="text-xs text-muted">{t('signals.intro')}</p>
      </div>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Signal
          label={t('signals.speed.label')}
          value={
            signals.charsPerMinute === null
              ? t('signals.tooLittle')
              : t('signals.speed.value', { value: Math.round(signals.charsPerMinute) })
          }
          cohort={signals.charsPerMinute === null ? undefined : cohort('charsPerMinute', 'speed')}
          explain={t('signals.speed.explain')}
        />
        <Signal
          label={t('signals.pause.label')}
          value={
            signals.pauses.medianMs === null
              ? t('signals.tooLittle')
              : t('signals.pause.value', { value: (signals.pauses.medianMs / 1000).toFixed(2) })
          }
          cohort={
            signals.pauses.medianMs === null ? undefined : (
              <>
                {cohort('medianPauseMs', 'pause')}{' '}
                <span className="text-muted">
                  {t('signals.pause.bands', {
                    under: signals.pauses.under2s,
                    middle: signals.pauses.from2to10s,
                    over: signals.pauses.over10s,
                  })}
                </span>
              </>
            )
          }
          explain={t('signals.pause.explain')}
        />
        <Signal
          label={t('signals.revision.label')}
          value={
            signals.revisionRatio === null
              ? t('signals.tooLittle')
              : t('signals.revision.value', { value: signals.revisionRatio.toFixed(2) })
          }
          cohort={signals.revisionRatio === null ? undefined : cohort('revisionRatio', 'revision')}
          explain={t('signals.revision.explain')}
        />
        <Signal
          label={t('signals.burst.label')}
          value={t('signals.burst.value', { count: signals.longestBurst })}
          cohort={signals.keystrokes > 0 ? cohort('longestBurst', 'burst') : undefined}
          explain={t('signals.burst.explain')}
        />
        <Signal
          label={t('signals.keystrokes.label')}
          value={t('signals.keystrokes.value', { count: signals.keystrokes })}
          explain={t('signals.keystrokes.explain')}
        />
      </dl>
      <div
        role="note"
        aria-label={t('signals.transcription.label')}
        className={
          transcription.flagged
            ? 'rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-ink'
            : 'text-sm text-muted'
        }
      >
        {transcription.flagged ? (
          <>
            <p className="flex items-start gap-2">
              <Eye aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-amber-800" />
              <span>
                <span className="font-medium">{t('signals.transcription.label')}: </span>
                {t('signals.transcription.flagged')}
              </span>
            </p>
            <p className="mt-1">
              {t('signals.transcription.spans', { count: transcription.spans.length, chars: transcription.chars })}
            </p>
            <ul className="mt-1 flex flex-wrap gap-2">
              {transcription.spans.map((span) => {
                const from = Date.parse(span.start) - start;
                const label = t('signals.transcription.watchSpan', {
                  from: formatElapsed(from),
                  to: formatElapsed(Date.parse(span.end) - start),
                });
                return (
                  <li key={span.start}>
                    {onWatch ? (
                      <Button variant="secondary" size="sm" onClick={() => onWatch(from)}>
                        {label}
                      </Button>
                    ) : (
                      label
                    )}
                  </li>
                );
              })}
            </ul>
          </>
        ) : (
          <p>{t('signals.transcription.none')}</p>
        )}
      </div>
    </div>
  );
}
