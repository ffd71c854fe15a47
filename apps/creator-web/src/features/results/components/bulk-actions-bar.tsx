import type { BulkResultAction, BulkResultsReport } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { ConfirmDialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { CircleSlash, EyeOff, Send } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useBulkResults } from '../api/bulk-results.ts';
import type { Selection } from '../hooks/use-selection.ts';

const ACTIONS: ReadonlyArray<{ action: BulkResultAction; icon: typeof Send }> = [
  { action: 'score-unanswered', icon: CircleSlash },
  { action: 'release', icon: Send },
  { action: 'unrelease', icon: EyeOff },
];

/** The toast after an action: what changed, and what is still awaiting grading. */
function reportToast(t: ReturnType<typeof useTranslation<'results'>>['t'], report: BulkResultsReport) {
  const description = report.pending > 0 ? t('bulkActions.stillPending', { count: report.pending }) : undefined;
  if (report.action === 'score-unanswered')
    return toast.success(
      t('bulkActions.done.score-unanswered', { count: report.questionsScored, results: report.changed }),
      { description },
    );
  if (report.action === 'release')
    return toast.success(t('bulkActions.done.release', { count: report.changed }), { description });
  return toast.success(t('bulkActions.done.unrelease', { count: report.changed }));
}

/**
 * The bar over a results table once candidates are chosen: one action for all of them, after a confirmation that
 * says how many it reaches. The server applies it to all or none.
 */
export function BulkActionsBar({ selection }: { selection: Selection }) {
  const { t } = useTranslation('results');
  const bulk = useBulkResults();
  const [asked, setAsked] = useState<BulkResultAction | null>(null);
  const count = selection.selected.length;
  if (count === 0) return null;

  const confirm = () => {
    if (!asked) return;
    bulk.mutate(
      { action: asked, resultIds: selection.selected },
      {
        onSuccess: (report) => {
          reportToast(t, report);
          setAsked(null);
          selection.clear();
        },
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );
  };

  return (
    <div
      role="region"
      aria-label={t('bulkActions.region')}
      className="flex flex-wrap items-center gap-2 border-b border-line bg-brand-50 px-5 py-3"
      data-testid="bulk-actions"
    >
      <span className="mr-2 text-sm font-medium text-ink" aria-live="polite">
        {t('bulkActions.selected', { count })}
      </span>
      {ACTIONS.map(({ action, icon: Icon }) => (
        <Button key={action} size="sm" variant="secondary" onClick={() => setAsked(action)}>
          <Icon aria-hidden className="h-4 w-4" /> {t(`bulkActions.action.${action}`)}
        </Button>
      ))}
      <Button size="sm" variant="ghost" onClick={selection.clear}>
        {t('bulkActions.clear')}
      </Button>
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => !open && setAsked(null)}
        title={asked ? t(`bulkActions.confirm.${asked}.title`, { count }) : ''}
        description={asked ? t(`bulkActions.confirm.${asked}.description`, { count }) : ''}
        confirmLabel={asked ? t(`bulkActions.action.${asked}`) : undefined}
        isPending={bulk.isPending}
        onConfirm={confirm}
      />
    </div>
  );
}
