import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';

const LABELS: Record<string, ParseKeys<'grading'>> = {
  'focus-lost': 'eventsSummary.event.focusLost',
  'focus-gained': 'eventsSummary.event.focusGained',
  'fullscreen-exit': 'eventsSummary.event.fullscreenExit',
  'fullscreen-enter': 'eventsSummary.event.fullscreenEnter',
  'paste-blocked': 'eventsSummary.event.pasteBlocked',
  'paste-allowed': 'eventsSummary.event.pasteAllowed',
  copy: 'eventsSummary.event.copy',
};

/**
 * How often each proctoring event happened during the attempt: the server's count over every stored event
 * (the result lists only the newest ones).
 */
export function EventsSummary({ summary }: { summary: Record<string, number> }) {
  const { t } = useTranslation('grading');
  const counts = new Map(Object.entries(summary));
  return (
    <Card>
      <CardHeader title={t('eventsSummary.events')} description={t('eventsSummary.proctoringEventsRecordedDuring')} />
      <CardBody>
        {counts.size === 0 ? (
          <p className="text-sm text-muted">{t('eventsSummary.noEventsWereRecorded')}</p>
        ) : (
          <dl aria-label={t('eventsSummary.eventCounts')} className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {[...counts].map(([type, count]) => (
              <div key={type}>
                <dt className="text-xs text-muted">{LABELS[type] ? t(LABELS[type]) : type}</dt>
                <dd className="text-lg font-semibold tabular-nums">{count}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardBody>
    </Card>
  );
}
