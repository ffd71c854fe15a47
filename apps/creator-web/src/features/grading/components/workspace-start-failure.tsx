import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useWorkspaceStartFailure } from '../api/get-workspace-start-failure.ts';

/**
 * The technical reason a candidate's coding workspace did not start (docs/product.md#the-coding-workspace): the
 * candidate only read that the workspace was unavailable, so the grader learns here why no workspace files exist.
 */
export function WorkspaceStartFailureNote({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('workspace');
  const { data: failure } = useWorkspaceStartFailure(attemptId);
  if (!failure) return null;
  return (
    <section
      aria-label={t('startFailure.title')}
      className="flex gap-3 rounded-lg border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900"
      data-testid="workspace-start-failure"
    >
      <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-medium">{t('startFailure.title')}</p>
        <p>{t('startFailure.tries', { count: failure.failures, at: formatDateTime(failure.lastFailedAt) })}</p>
        <p className="break-words">
          <span className="font-medium">{t('startFailure.reason')}: </span>
          <code className="font-mono text-xs">{failure.reason}</code>
        </p>
      </div>
    </section>
  );
}
