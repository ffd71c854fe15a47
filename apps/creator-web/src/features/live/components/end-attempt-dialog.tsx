import type { LiveAttempt } from '@exam/domain/live';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useEndAttempt } from '../api/live-queries.ts';

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
  const end = useEndAttempt(examId);
  return (
    <ConfirmDialog
      open={attempt !== null}
      onOpenChange={(open) => !open && onClose()}
      title="End this attempt?"
      description={
        attempt
          ? `${attempt.name} (${attempt.studentId}) will see that you ended the exam. Their saved answers (${attempt.answered} of ${attempt.total}) are submitted and scored; they cannot change anything afterwards.`
          : ''
      }
      confirmLabel="End attempt"
      destructive
      isPending={end.isPending}
      onConfirm={() => {
        if (!attempt) return;
        end.mutate(attempt.attemptId, {
          onSuccess: () => {
            toast.success(`Ended the attempt of ${attempt.name}`);
            onClose();
          },
          onError: (failure) => toast.error(userMessageOf(failure)),
        });
      }}
    />
  );
}
