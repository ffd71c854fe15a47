import type { LiveAttempt } from '@exam/domain/live';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { AlertTriangle, FileQuestion } from 'lucide-react';
import { useState } from 'react';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useExamLive, useLiveExamTitle } from '../api/manage-live-exam.ts';
import { AnnouncementBox } from './announcement-box.tsx';
import { EndAttemptDialog } from './end-attempt-dialog.tsx';
import { BackToDashboard } from '../../../components/back-to-dashboard.tsx';
import { ExtendTimeDialog } from './extend-time-dialog.tsx';
import { LiveAttemptsTable, type AttemptAction } from './live-attempts-table.tsx';
import { UnlockResumeDialog } from './unlock-resume-dialog.tsx';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';

/**
 * What a screen reader hears when the table changes: only the counts, and only when they change, so a
 * poll every few seconds does not talk over the proctor.
 */
function liveSummary(attempts: LiveAttempt[]): string {
  const count = (status: LiveAttempt['status']) => attempts.filter((a) => a.status === status).length;
  const done = attempts.length - count('in-progress');
  return i18n.t('live:examLive.summary', { inProgress: count('in-progress'), done });
}

/** /creator/exam-live/{examId}: the live proctor view (docs/product.md#the-live-proctor-view). */
export function ExamLive({ examId }: { examId: string }) {
  const { t } = useTranslation('live');
  const title = useLiveExamTitle(examId);
  const live = useExamLive(examId);
  const [action, setAction] = useState<{ kind: AttemptAction; attempt: LiveAttempt } | null>(null);
  const selected = (kind: AttemptAction) => (action?.kind === kind ? action.attempt : null);
  const close = () => setAction(null);

  if (live.isPending) return <PageSpinner label={t('examLive.loadingTheLiveView')} />;
  if (!live.data) {
    const missing = live.error instanceof ApiError && live.error.status === 404;
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={missing ? <FileQuestion aria-hidden /> : <AlertTriangle aria-hidden />}
          title={missing ? t('examLive.examNotFound') : t('examLive.couldNotLoadThe')}
          description={missing ? undefined : userMessageOf(live.error)}
          action={
            missing ? (
              <BackToDashboard />
            ) : (
              <Button variant="secondary" onClick={() => void live.refetch()}>
                {t('examLive.tryAgain')}
              </Button>
            )
          }
        />
      </Card>
    );
  }

  const { attempts, announcements, serverNow } = live.data;
  return (
    <>
      <PageHeader
        back={<BackToDashboard />}
        title={t('examLive.title', { title: title.data ?? t('examLive.exam') })}
        description={t('examLive.whoIsSittingThe')}
      />
      <p role="status" className="sr-only">
        {liveSummary(attempts)}
      </p>
      {live.isRefetchError && (
        <p role="alert" className="mb-4 rounded-lg bg-yellow-50 p-3 text-sm text-yellow-800">
          {t('examLive.couldNotRefreshUsermessageof', { message: userMessageOf(live.error) })}
        </p>
      )}
      <div className="flex flex-col gap-6">
        <Card>
          <LiveAttemptsTable
            attempts={attempts}
            serverNow={serverNow}
            receivedAt={live.dataUpdatedAt}
            onAction={(kind, attempt) => setAction({ kind, attempt })}
          />
        </Card>
        <AnnouncementBox examId={examId} announcements={announcements} />
      </div>
      <ExtendTimeDialog examId={examId} attempt={selected('extend')} onClose={close} />
      <UnlockResumeDialog examId={examId} attempt={selected('unlock')} onClose={close} />
      <EndAttemptDialog examId={examId} attempt={selected('end')} onClose={close} />
    </>
  );
}
