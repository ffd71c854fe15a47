import type { SuggestionBatch } from '@exam/domain/question-grading';
import { Button } from '@exam/ui/button';
import { Progress } from '@exam/ui/progress';
import { ListChecks } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useCancelSuggestionBatch, useLatestSuggestionBatch, useStartSuggestionBatch } from '../api/suggest-marks.ts';

/** How a batch that stopped ended, in the grader's words. */
function BatchOutcome({ batch }: { batch: SuggestionBatch }) {
  const { t } = useTranslation('question-grading');
  const { done, failed, total } = batch.progress;
  return (
    <p className="text-sm text-ink" data-testid="batch-status">
      {t(`batch.status.${batch.status}`, { done, failed, total })}
      {batch.error ? ` ${batch.error}` : ''}
    </p>
  );
}

/**
 * "Suggest marks for all unmarked answers": a batch on the server (leased and cancellable, like the solvability
 * check), its progress read again while it runs, and how it ended.
 */
export function SuggestionBatchControls({
  examId,
  questionIndex,
  canStart,
}: {
  examId: string;
  questionIndex: number;
  canStart: boolean;
}) {
  const { t } = useTranslation('question-grading');
  const latest = useLatestSuggestionBatch(examId, questionIndex);
  const start = useStartSuggestionBatch(examId, questionIndex);
  const cancel = useCancelSuggestionBatch(examId, questionIndex);
  const batch = latest.data ?? null;
  const running = batch?.status === 'running';
  const error = start.error ?? cancel.error ?? latest.error;
  return (
    <section aria-label={t('batch.label')} className="flex flex-col gap-2 border-t border-line pt-4">
      {!running && canStart && (
        <Button variant="secondary" disabled={start.isPending} onClick={() => start.mutate({ scope: 'unmarked' })}>
          <ListChecks aria-hidden className="h-4 w-4" /> {t('batch.start')}
        </Button>
      )}
      {batch && running && (
        <div className="flex flex-col gap-2">
          <Progress
            value={batch.progress.total ? (batch.progress.done / batch.progress.total) * 100 : 0}
            label={t('batch.progressLabel')}
          />
          <p className="text-sm text-muted" role="status" data-testid="batch-progress">
            {t('batch.progress', {
              done: batch.progress.done,
              total: batch.progress.total,
              failed: batch.progress.failed,
            })}
          </p>
          <Button
            variant="secondary"
            size="sm"
            disabled={batch.cancelRequested || cancel.isPending}
            onClick={() => cancel.mutate(batch.id)}
          >
            {batch.cancelRequested ? t('batch.cancelling') : t('batch.cancel')}
          </Button>
        </div>
      )}
      {batch && !running && <BatchOutcome batch={batch} />}
      {error && (
        <p role="alert" className="text-sm text-danger">
          {userMessageOf(error)}
        </p>
      )}
    </section>
  );
}
