import type { ResultDetail } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { toast } from '@exam/ui/toaster';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useReleaseResult } from '../api/grade-result.ts';
import { useTranslation } from 'react-i18next';

/** Release result / Withdraw release; a result awaiting grading cannot be released yet. */
export function ReleaseButton({ detail }: { detail: ResultDetail }) {
  const { t } = useTranslation('grading');
  const release = useReleaseResult(detail.id);
  const released = detail.status === 'released';
  const pending = detail.status === 'pending';
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        disabled={pending || release.isPending}
        aria-describedby={pending ? `release-hint-${detail.id}` : undefined}
        onClick={() =>
          release.mutate(!released, {
            onSuccess: () =>
              toast.success(released ? t('releaseButton.releaseWithdrawn') : t('releaseButton.resultReleased')),
            onError: (error) => toast.error(userMessageOf(error)),
          })
        }
      >
        {released ? t('releaseButton.withdrawRelease') : t('releaseButton.releaseResult')}
      </Button>
      {pending && (
        <span id={`release-hint-${detail.id}`} className="text-xs text-muted">
          {t('releaseButton.gradeEveryQuestionBefore')}
        </span>
      )}
    </span>
  );
}
