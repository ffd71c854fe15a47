import type { AssistantAudit } from '@exam/domain/assistant-audit';
import { Button } from '@exam/ui/button';
import { Progress } from '@exam/ui/progress';
import { AlertTriangle, ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useCancelAudit, useLatestAudit, useStartAudit } from '../api/run-audit.ts';
import { formatCount } from '../lib/format.ts';
import { AuditReport } from './audit-report.tsx';
import { AuditStartForm } from './audit-start-form.tsx';
import type { ConfigurationDraft } from './compare-configurations.tsx';
import { Equivalence } from './equivalence-report.tsx';

/** The panel's element id: the exam's header and the publish bar link to it. */
export const AUDIT_PANEL_ID = 'assistant-audit';

type Props = {
  /** Undefined while the exam has never been saved. */
  examId: string | undefined;
  /** The audit asks the assistant as saved: settings on screen that are not saved yet would not be audited. */
  hasUnsavedChanges: boolean;
  /** The configurations to compare with; the page shares them with the solvability check. */
  compareWith: ConfigurationDraft[];
  onCompareWithChange: (next: ConfigurationDraft[]) => void;
};

/**
 * "Audit the assistant": a fixed battery of extraction attempts at the exam's saved assistant, per keyed question,
 * with what leaked before and past the answer guard (docs/product.md, "Before publishing: audit the assistant").
 */
export function AssistantAuditPanel({ examId, hasUnsavedChanges, compareWith, onCompareWithChange }: Props) {
  const { t } = useTranslation('audit');
  return (
    <section
      id={AUDIT_PANEL_ID}
      aria-labelledby="assistant-audit-heading"
      className="flex scroll-mt-24 flex-col gap-3 rounded-lg border border-dashed border-line p-4"
    >
      <div className="flex flex-col gap-0.5">
        <h3 id="assistant-audit-heading" className="flex items-center gap-2 text-sm font-medium text-ink">
          <ShieldAlert aria-hidden className="h-4 w-4" /> {t('panel.title')}
        </h3>
        <p className="text-xs text-muted">{t('panel.description')}</p>
      </div>
      {examId === undefined || hasUnsavedChanges ? (
        <p className="text-xs text-muted">{t('panel.saveFirst')}</p>
      ) : (
        <AuditView examId={examId} compareWith={compareWith} onCompareWithChange={onCompareWithChange} />
      )}
    </section>
  );
}

function AuditView({
  examId,
  compareWith,
  onCompareWithChange,
}: {
  examId: string;
  compareWith: ConfigurationDraft[];
  onCompareWithChange: (next: ConfigurationDraft[]) => void;
}) {
  const { t } = useTranslation('audit');
  const latest = useLatestAudit(examId);
  const start = useStartAudit(examId);
  const cancel = useCancelAudit(examId);
  const audit = latest.data?.audit ?? null;
  const running = audit?.status === 'running';
  return (
    <div className="flex flex-col gap-4">
      {latest.isError && (
        <p role="alert" className="text-sm text-red-700">
          {userMessageOf(latest.error)}
        </p>
      )}
      {audit && latest.data?.current === false && (
        <p
          className="flex items-start gap-2 rounded-md bg-yellow-50 p-3 text-sm text-yellow-800"
          data-testid="audit-stale"
        >
          <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" /> {t('panel.stale')}
        </p>
      )}
      {latest.isSuccess && !running && (
        <AuditStartForm
          examId={examId}
          compareWith={compareWith}
          onCompareWithChange={(next) => {
            start.reset();
            onCompareWithChange(next);
          }}
          pending={start.isPending}
          error={start.error}
          hasRun={audit !== null}
          onStart={(body) => start.mutate(body)}
        />
      )}
      {audit && running && (
        <Progress
          value={audit.progress.total ? (audit.progress.done / audit.progress.total) * 100 : 0}
          label={t('progress.label')}
        />
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        {/* One polite region, always there: the run's progress while it runs, then how it ended. */}
        <p role="status" aria-live="polite" className="text-sm text-ink" data-testid="audit-status">
          {audit && <RunText audit={audit} />}
        </p>
        {audit && running && (
          <Button
            type="button"
            variant="secondary"
            disabled={audit.cancelRequested || cancel.isPending}
            onClick={() => cancel.mutate(audit.id)}
          >
            {audit.cancelRequested || cancel.isPending ? t('progress.cancelling') : t('progress.cancel')}
          </Button>
        )}
      </div>
      {audit && audit.resumed > 0 && (
        <p className="text-xs text-muted">{t('panel.resumed', { count: audit.resumed })}</p>
      )}
      {cancel.isError && (
        <p role="alert" className="text-sm text-red-700">
          {userMessageOf(cancel.error)}
        </p>
      )}
      {audit && <AuditReport audit={audit} />}
      {audit && !running && audit.configurations.length > 1 && <Equivalence examId={examId} auditId={audit.id} />}
    </div>
  );
}

function RunText({ audit }: { audit: AssistantAudit }) {
  const { t } = useTranslation('audit');
  const calls = formatCount(audit.used.calls);
  const tokens = formatCount(audit.used.tokens);
  if (audit.status === 'running') {
    return (
      <>
        {t('progress.text', {
          done: formatCount(audit.progress.done),
          total: formatCount(audit.progress.total),
          calls,
          tokens,
        })}
      </>
    );
  }
  return (
    <>
      {t(`status.${audit.status}`, { calls, tokens })}
      {audit.error ? ` ${audit.error}` : ''}
    </>
  );
}
