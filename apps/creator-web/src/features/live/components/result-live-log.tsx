import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { useResultLiveLog } from '../api/manage-live-exam.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useTranslation } from 'react-i18next';

/** On a result's detail: the announcements made while the attempt was open, and who ended it, if anyone. */
export function ResultLiveLog({ resultId }: { resultId: string }) {
  const { t } = useTranslation('live');
  const log = useResultLiveLog(resultId);
  if (!log.data || (log.data.announcements.length === 0 && !log.data.endedBy)) return null;
  const { announcements, endedBy, endedAt } = log.data;
  return (
    <Card className="mt-6">
      <CardHeader
        title={t('resultLiveLog.duringTheExam')}
        description={t('resultLiveLog.announcementsMadeWhileThis')}
      />
      <CardBody>
        {endedBy && endedAt && (
          <p className="mb-3 text-sm font-medium text-ink">
            {t('resultLiveLog.endedByEndedbyAt', { endedBy, endedAt: formatDateTime(endedAt) })}
          </p>
        )}
        {announcements.length > 0 && (
          <ol aria-label={t('resultLiveLog.announcementsDuringTheAttempt')} className="flex flex-col gap-2">
            {announcements.map((a) => (
              <li key={a.id} className="text-sm">
                <time dateTime={a.at} className="mr-2 text-xs text-muted">
                  {formatDateTime(a.at)}
                </time>
                <span className="whitespace-pre-wrap break-words text-ink">{a.text}</span>
              </li>
            ))}
          </ol>
        )}
      </CardBody>
    </Card>
  );
}
