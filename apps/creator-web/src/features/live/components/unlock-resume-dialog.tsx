import type { LiveAttempt } from '@exam/domain/live';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useUnlockResume } from '../api/live-queries.ts';
import { formatTime } from '../../../lib/format-date.ts';

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
  const unlock = useUnlockResume(examId);
  return (
    <ConfirmDialog
      open={attempt !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Unlock resume on another device?"
      description={
        attempt
          ? `The next start with candidate ID ${attempt.studentId} continues ${attempt.name}'s attempt without the resume code, once, within a few minutes. Check who they are first.`
          : ''
      }
      confirmLabel="Unlock resume"
      isPending={unlock.isPending}
      onConfirm={() => {
        if (!attempt) return;
        unlock.mutate(attempt.studentId, {
          onSuccess: (data) => {
            toast.success(`${data.name} can continue without the code until ${formatTime(data.unlockedUntil)}`);
            onClose();
          },
          onError: (failure) => toast.error(userMessageOf(failure)),
        });
      }}
    />
  );
}
