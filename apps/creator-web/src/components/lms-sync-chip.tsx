import type { LmsSync, LmsSyncState } from '@exam/domain/lti-ags';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { toast } from '@exam/ui/toaster';
import { Tooltip } from '@exam/ui/tooltip';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../lib/api-client.ts';
import { retryLmsSync } from '../lib/results-api.ts';

const TONE: Record<LmsSyncState, BadgeTone> = { pending: 'neutral', sent: 'success', failed: 'danger' };

/**
 * Where a result's score stands with the LMS it came from (LTI score passback): sending, sent, or refused.
 * The LMS's last error shows on hover and focus (and is the chip's description for screen readers); a
 * refused score can be sent again. Shared by the results list and the result page.
 */
export function LmsSyncChip({
  resultId,
  sync,
  candidate,
}: {
  resultId: string;
  sync: LmsSync;
  /** Names the candidate in the Retry button where several results are listed. */
  candidate?: string;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => retryLmsSync(resultId),
    onSuccess: () => {
      toast.success(t('lmsSync.retryQueued'));
      void queryClient.invalidateQueries({ queryKey: ['results'] });
    },
    onError: (error) => toast.error(userMessageOf(error)),
  });
  const chip = (
    <Badge
      tone={TONE[sync.state]}
      data-testid="lms-sync"
      data-state={sync.state}
      tabIndex={sync.lastError ? 0 : undefined}
      aria-describedby={sync.lastError ? errorId : undefined}
    >
      {t(`lmsSync.state.${sync.state}`)}
    </Badge>
  );
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {sync.lastError ? (
        <>
          <Tooltip content={t('lmsSync.lastError', { error: sync.lastError, tries: sync.tries })}>{chip}</Tooltip>
          <span id={errorId} className="sr-only">
            {t('lmsSync.lastError', { error: sync.lastError, tries: sync.tries })}
          </span>
        </>
      ) : (
        chip
      )}
      {sync.state === 'failed' && (
        <Button
          variant="secondary"
          size="sm"
          disabled={retry.isPending}
          aria-label={candidate ? t('lmsSync.retryFor', { name: candidate }) : undefined}
          onClick={() => retry.mutate()}
        >
          <RotateCcw aria-hidden className="h-3.5 w-3.5" /> {t('lmsSync.retry')}
        </Button>
      )}
    </span>
  );
}
