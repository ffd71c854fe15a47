import { formatResumeCode, type UnlockAttemptResponse } from '@exam/domain/attempt-binding';
import type { LiveAttempt } from '@exam/domain/live';
import { Button } from '@exam/ui/button';
import { ConfirmDialog, Dialog } from '@exam/ui/dialog';
import { useState } from 'react';
import { toast } from '@exam/ui/toaster';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useUnlockResume } from '../api/manage-live-exam.ts';
import { formatTime } from '../../../lib/format-date.ts';
import { useTranslation } from 'react-i18next';

/**
 * For a candidate who must continue on another device without their resume code: the examiner gets a one-time
 * unlock code to hand that candidate (shown until closed), which works once, for a few minutes.
 */
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
  const [issued, setIssued] = useState<UnlockAttemptResponse | null>(null);
  return (
    <>
      <Dialog
        open={issued !== null}
        onOpenChange={(open) => !open && setIssued(null)}
        title={issued ? t('unlockResumeDialog.unlockCodeFor', { name: issued.name }) : ''}
        description={
          issued
            ? t('unlockResumeDialog.giveThisCode', {
                name: issued.name,
                studentId: issued.studentId,
                unlockedUntil: formatTime(issued.unlockedUntil),
              })
            : ''
        }
        footer={<Button onClick={() => setIssued(null)}>{t('unlockResumeDialog.close')}</Button>}
      >
        <p className="font-mono text-2xl font-semibold tracking-widest text-ink" data-testid="unlock-code">
          {issued ? formatResumeCode(issued.unlockCode) : ''}
        </p>
      </Dialog>
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
              setIssued(data);
              onClose();
            },
            onError: (failure) => toast.error(userMessageOf(failure)),
          });
        }}
      />
    </>
  );
}
