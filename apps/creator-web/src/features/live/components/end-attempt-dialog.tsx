import type { LiveAttempt } from '@exam/domain/live';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useEndAttempt } from '../api/manage-live-exam.ts';
import { useTranslation } from 'react-i18next';

/** Asks before ending: the candidate's saved answers are submitted and they can change nothing more. */
export function EndAttemptDialog({
  examId,
  attempt,
  onClose,
}: {
  examId: string;
  attempt: LiveAttempt | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('live');
  const end = useEndAttempt(examId);
  return (
    <ConfirmDialog
      open={attempt !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('endAttemptDialog.endThisAttempt')}
      description={
        attempt
          ? t('endAttemptDialog.nameStudentidWillSee', {
              name: attempt.name,
              studentId: attempt.studentId,
              answered: attempt.answered,
              total: attempt.total,
            })
          : ''
      }
      confirmLabel={t('endAttemptDialog.endAttempt')}
      destructive
      isPending={end.isPending}
      onConfirm={() => {
        if (!attempt) return;
        end.mutate(attempt.attemptId, {
          onSuccess: () => {
            toast.success(t('endAttemptDialog.endedTheAttemptOf', { name: attempt.name }));
            onClose();
          },
          onError: (failure) => toast.error(userMessageOf(failure)),
        });
      }}
    />
  );
}
