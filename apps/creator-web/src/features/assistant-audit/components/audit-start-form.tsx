import {
  AUDIT_DEFAULT_CONCURRENCY,
  AUDIT_MAX_CONCURRENCY,
  StartAuditSchema,
  type StartAudit,
} from '@exam/domain/assistant-audit';
import type { Issue } from '@exam/domain/errors';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useAuditEstimate } from '../api/estimate-audit.ts';
import { AuditEstimateView } from './audit-estimate.tsx';
import { CompareConfigurations, toConfigurations, type ConfigurationDraft } from './compare-configurations.tsx';

/** How long the form rests before the estimate is asked again (typing a URL is many changes). */
const ESTIMATE_DEBOUNCE_MS = 300;

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** A 400's issues by the path the form knows them by (`body.compareWith.0.provider` → `compareWith.0.provider`). */
export function startIssues(error: unknown): Record<string, string> {
  const issues: Issue[] = error instanceof ApiError ? error.issues : [];
  return Object.fromEntries(issues.map((issue) => [issue.path.replace(/^body\./, ''), issue.message]));
}

type Props = {
  examId: string;
  compareWith: ConfigurationDraft[];
  onCompareWithChange: (next: ConfigurationDraft[]) => void;
  pending: boolean;
  /** The start's failure: a 400's field issues go to their fields, anything else is said above the button. */
  error: unknown;
  hasRun: boolean;
  onStart: (body: StartAudit) => void;
};

/** Before the audit starts: the estimate, how many calls at once, and the configurations to compare with. */
export function AuditStartForm({ examId, compareWith, onCompareWithChange, pending, error, hasRun, onStart }: Props) {
  const { t } = useTranslation('audit');
  const [concurrency, setConcurrency] = useState(String(AUDIT_DEFAULT_CONCURRENCY));
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  // The same schema the gateway checks the request with.
  const parsed = StartAuditSchema.safeParse({
    concurrency: Number(concurrency),
    compareWith: toConfigurations(compareWith),
  });
  const bodyKey = useDebounced(parsed.success ? JSON.stringify(parsed.data) : '', ESTIMATE_DEBOUNCE_MS);
  const estimate = useAuditEstimate(examId, bodyKey ? (JSON.parse(bodyKey) as StartAudit) : null);
  const serverErrors = startIssues(error);
  const errors = { ...serverErrors, ...clientErrors };
  const unplaced = error !== null && error !== undefined && Object.keys(serverErrors).length === 0;

  const messageFor = (path: string) => {
    if (path === 'concurrency') return t('start.invalidNumber');
    if (path.endsWith('.baseUrl')) return t('compare.invalidBaseUrl');
    return t('compare.modelPlaceholder');
  };
  const submit = () => {
    if (!parsed.success) {
      setClientErrors(
        Object.fromEntries(
          parsed.error.issues.map((issue) => [issue.path.join('.'), messageFor(issue.path.join('.'))]),
        ),
      );
      return;
    }
    setClientErrors({});
    onStart(parsed.data);
  };

  return (
    // Not a <form>: the panel sits inside the exam editor's form, and its button must not save the exam.
    <div className="flex flex-col gap-4">
      {estimate.data && <AuditEstimateView estimate={estimate.data} />}
      {estimate.isPending && bodyKey !== '' && <p className="text-xs text-muted">{t('estimate.loading')}</p>}
      {estimate.isError && (
        <p role="alert" className="text-sm text-red-700">
          {userMessageOf(estimate.error)}
        </p>
      )}
      <Field
        label={t('start.concurrency')}
        hint={t('start.concurrencyHint', { max: AUDIT_MAX_CONCURRENCY })}
        error={errors.concurrency}
        className="max-w-xs"
      >
        <Input
          type="number"
          min={1}
          max={AUDIT_MAX_CONCURRENCY}
          value={concurrency}
          onChange={(e) => setConcurrency(e.target.value)}
        />
      </Field>
      <CompareConfigurations value={compareWith} onChange={onCompareWithChange} errors={errors} disabled={pending} />
      {unplaced && (
        <p role="alert" className="text-sm text-red-700">
          {userMessageOf(error)}
        </p>
      )}
      <div>
        <Button type="button" disabled={pending} onClick={submit}>
          {hasRun ? t('start.again') : t('start.button')}
        </Button>
      </div>
    </div>
  );
}
