import type { LiveAttempt } from '@exam/domain/live';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useUnlockResume } from '../api/manage-live-exam.ts';
import { formatTime } from '../../../lib/format-date.ts';
import { useTranslation } from 'react-i18next';

/** For a candidate who must continue on another device without their resume code: once, for a few minutes. */
export function UnlockResumeDialog({
  examId,
  attempt,
  onClose,
}: {
  examId: string;
  attempt: LiveAttempt | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('live');
  const unlock = useUnlockResume(examId);
  return (
    <ConfirmDialog
      open={attempt !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('unlockResumeDialog.unlockResumeOnAnother')}
      description={
        attempt ? t('unlockResumeDialog.theNextStartWith', { studentId: attempt.studentId, name: attempt.name }) : ''
      }
      confirmLabel={t('unlockResumeDialog.unlockResume')}
      isPending={unlock.isPending}
      onConfirm={() => {
        if (!attempt) return;
        unlock.mutate(attempt.studentId, {
          onSuccess: (data) => {
            toast.success(
              t('unlockResumeDialog.nameCanContinueWithout', {
                name: data.name,
                unlockedUntil: formatTime(data.unlockedUntil),
              }),
            );
            onClose();
          },
          onError: (failure) => toast.error(userMessageOf(failure)),
        });
      }}
    />
  );
}
