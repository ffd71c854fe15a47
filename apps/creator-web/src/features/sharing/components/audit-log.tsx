import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageSpinner } from '@exam/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { AlertTriangle, History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useAuditLog } from '../api/get-audit-log.ts';
import { actionWords, detailWords } from '../lib/audit-words.ts';

/** /creator/exam-audit/{examId}: who did what to the exam and its results, newest first (the owner's page). */
export function AuditLog({ examId }: { examId: string }) {
  const { t } = useTranslation('sharing');
  const log = useAuditLog(examId);
  if (log.isPending) return <PageSpinner label={t('auditPage.loading')} />;
  if (log.isError) {
    return (
      <Card>
        <EmptyState
          icon={<AlertTriangle aria-hidden />}
          title={t('auditPage.couldNotLoad')}
          description={userMessageOf(log.error)}
          action={
            <Button variant="secondary" onClick={() => void log.refetch()}>
              {t('auditPage.tryAgain')}
            </Button>
          }
        />
      </Card>
    );
  }
  const events = log.data.pages.flatMap((page) => page.events);
  const incomplete = log.data.pages.some((page) => page.incomplete.length > 0);
  return (
    <div className="flex flex-col gap-4">
      {incomplete && (
        <p role="status" className="rounded-lg bg-yellow-50 p-3 text-sm text-yellow-800">
          {t('auditPage.incomplete')}
        </p>
      )}
      <Card>
        {events.length === 0 ? (
          <EmptyState icon={<History aria-hidden />} title={t('auditPage.empty')} />
        ) : (
          <Table aria-label={t('auditPage.events')}>
            <TableHead>
              <tr>
                <TableHeaderCell>{t('auditPage.when')}</TableHeaderCell>
                <TableHeaderCell>{t('auditPage.who')}</TableHeaderCell>
                <TableHeaderCell>{t('auditPage.what')}</TableHeaderCell>
                <TableHeaderCell>{t('auditPage.subject')}</TableHeaderCell>
                <TableHeaderCell>{t('auditPage.details')}</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {events.map((event) => (
                <TableRow key={event.id}>
                  <TableCell className="whitespace-nowrap">
                    <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                  </TableCell>
                  <TableCell className="break-all">{event.actorEmail ?? t('auditPage.platform')}</TableCell>
                  <TableCell>{actionWords(event.action)}</TableCell>
                  <TableCell className="break-all">{event.subject ?? '—'}</TableCell>
                  <TableCell className="text-muted">{detailWords(event) || '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Card>
      {log.hasNextPage && (
        <Button
          variant="secondary"
          className="self-center"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {log.isFetchingNextPage ? t('auditPage.loadingMore') : t('auditPage.loadMore')}
        </Button>
      )}
    </div>
  );
}
