import type { ResultDetail } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { toast } from '@exam/ui/toaster';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useReleaseResult } from '../api/result-queries.ts';

/** Release result / Withdraw release; a result awaiting grading cannot be released yet. */
export function ReleaseButton({ detail }: { detail: ResultDetail }) {
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
            onSuccess: () => toast.success(released ? 'Release withdrawn' : 'Result released'),
            onError: (error) => toast.error(userMessageOf(error)),
          })
        }
      >
        {released ? 'Withdraw release' : 'Release result'}
      </Button>
      {pending && (
        <span id={`release-hint-${detail.id}`} className="text-xs text-muted">
          Grade every question before releasing.
        </span>
      )}
    </span>
  );
}
