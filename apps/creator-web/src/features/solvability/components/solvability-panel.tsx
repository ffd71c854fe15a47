import type { AuditConfiguration } from '@exam/domain/assistant-audit';
import {
  SOLVABILITY_DEFAULT_PHRASINGS,
  SOLVABILITY_MAX_PHRASINGS,
  StartSolvabilityCheckSchema,
  type SolvabilityCheck,
  type SolvabilityItem,
  type SolvabilityVerdict,
  type StartSolvabilityCheck,
} from '@exam/domain/solvability';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Progress } from '@exam/ui/progress';
import { ShieldQuestion } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { configurationName } from '../../../lib/ai-configuration.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import {
  useCancelSolvabilityCheck,
  useLatestSolvabilityCheck,
  useStartSolvabilityCheck,
} from '../api/check-solvability.ts';

type Props = {
  /** Undefined while the exam has never been saved. */
  examId: string | undefined;
  /** The check asks the assistant as saved: settings on screen that are not saved yet would not be checked. */
  hasUnsavedChanges: boolean;
  /** Configurations the creator compares with (the audit's), offered to the check too (provider equivalence). */
  compareWith?: AuditConfiguration[];
};

const VERDICT_TONES: Record<SolvabilityVerdict, BadgeTone> = {
  'gives-away': 'danger',
  hints: 'warning',
  holds: 'success',
  'not-judged': 'neutral',
};

/**
 * The exam editor's AI solvability check: asks the saved assistant, as candidates would, for each question's
 * answer, and lists the questions it gives away with what to do about them (docs/product.md).
 */
export function SolvabilityPanel({ examId, hasUnsavedChanges, compareWith = [] }: Props) {
  const { t } = useTranslation('assistant');
  return (
    <section
      aria-labelledby="solvability-heading"
      className="flex flex-col gap-3 rounded-lg border border-dashed border-line p-4"
    >
      <div className="flex flex-col gap-0.5">
        <h3 id="solvability-heading" className="flex items-center gap-2 text-sm font-medium text-ink">
          <ShieldQuestion aria-hidden className="h-4 w-4" /> {t('solvability.title')}
        </h3>
        <p className="text-xs text-muted">{t('solvability.description')}</p>
      </div>
      {examId === undefined || hasUnsavedChanges ? (
        <p className="text-xs text-muted">{t('solvability.saveFirst')}</p>
      ) : (
        <SolvabilityCheckView examId={examId} compareWith={compareWith} />
      )}
    </section>
  );
}

function SolvabilityCheckView({ examId, compareWith }: { examId: string; compareWith: AuditConfiguration[] }) {
  const { t } = useTranslation('assistant');
  const latest = useLatestSolvabilityCheck(examId);
  const start = useStartSolvabilityCheck(examId);
  const cancel = useCancelSolvabilityCheck(examId);
  const check = latest.data ?? null;
  const running = check?.status === 'running';
  return (
    <div className="flex flex-col gap-4">
      {!running && (
        <StartForm pending={start.isPending} compareWith={compareWith} onStart={(body) => start.mutate(body)} />
      )}
      {start.isError && (
        <p role="alert" className="text-sm text-red-700">
          {userMessageOf(start.error)}
        </p>
      )}
      {latest.isError && (
        <p role="alert" className="text-sm text-red-700">
          {userMessageOf(latest.error)}
        </p>
      )}
      {check && running && (
        <div className="flex flex-col gap-2">
          <Progress
            value={check.progress.total ? (check.progress.done / check.progress.total) * 100 : 0}
            label={t('solvability.progressLabel')}
          />
          <div className="flex items-center justify-between gap-3">
            <span className="text-sm text-muted" role="status">
              {t('solvability.progress', { done: check.progress.done, total: check.progress.total })}
            </span>
            <Button
              variant="secondary"
              disabled={check.cancelRequested || cancel.isPending}
              onClick={() => cancel.mutate(check.id)}
            >
              {check.cancelRequested ? t('solvability.cancelling') : t('solvability.cancel')}
            </Button>
          </div>
        </div>
      )}
      {check && <Report check={check} />}
    </div>
  );
}

function StartForm({
  pending,
  compareWith,
  onStart,
}: {
  pending: boolean;
  compareWith: AuditConfiguration[];
  onStart: (body: StartSolvabilityCheck) => void;
}) {
  const { t } = useTranslation('assistant');
  const [phrasings, setPhrasings] = useState(String(SOLVABILITY_DEFAULT_PHRASINGS));
  const [maxCalls, setMaxCalls] = useState('');
  const [maxTokens, setMaxTokens] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [compare, setCompare] = useState(true);
  const comparing = compare && compareWith.length > 0;
  const submit = () => {
    const body = {
      phrasingsPerQuestion: Number(phrasings),
      ...(maxCalls.trim() ? { maxCalls: Number(maxCalls) } : {}),
      ...(maxTokens.trim() ? { maxTokens: Number(maxTokens) } : {}),
      ...(comparing ? { compareWith } : {}),
    };
    // The same schema the gateway checks the request with.
    const parsed = StartSolvabilityCheckSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), t('solvability.invalidNumber')])),
      );
      return;
    }
    setErrors({});
    onStart(parsed.data);
  };
  return (
    // Not a <form>: the panel sits inside the exam editor's form, and its button must not save the exam.
    <div className="flex flex-wrap items-end gap-3">
      <Field
        label={t('solvability.phrasings')}
        hint={t('solvability.phrasingsHint', { max: SOLVABILITY_MAX_PHRASINGS })}
        error={errors.phrasingsPerQuestion}
      >
        <Input
          type="number"
          min={1}
          max={SOLVABILITY_MAX_PHRASINGS}
          value={phrasings}
          onChange={(e) => setPhrasings(e.target.value)}
        />
      </Field>
      <Field label={t('solvability.maxCalls')} hint={t('solvability.defaultCap')} error={errors.maxCalls}>
        <Input type="number" min={1} value={maxCalls} onChange={(e) => setMaxCalls(e.target.value)} />
      </Field>
      <Field label={t('solvability.maxTokens')} hint={t('solvability.defaultCap')} error={errors.maxTokens}>
        <Input type="number" min={1000} value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} />
      </Field>
      {compareWith.length > 0 && (
        <label className="flex basis-full items-start gap-2 text-sm text-ink">
          <input type="checkbox" className="mt-1" checked={compare} onChange={(e) => setCompare(e.target.checked)} />
          <span>
            {t('solvability.compareWith', {
              count: compareWith.length,
              names: compareWith.map(configurationName).join(', '),
            })}
          </span>
        </label>
      )}
      <Button type="button" disabled={pending} onClick={submit}>
        {t('solvability.start')}
      </Button>
    </div>
  );
}

function Report({ check }: { check: SolvabilityCheck }) {
  const { t } = useTranslation('assistant');
  const finished = check.status !== 'running';
  // One configuration: the report as it always was. Several: the same report per configuration, the exam's first.
  const groups =
    check.configurations.length > 1
      ? check.configurations.map((configuration, index) => ({
          index,
          name: configurationName(configuration),
          items: check.items.filter((item) => item.configuration === index),
        }))
      : [{ index: 0, name: null, items: check.items }];
  return (
    <div className="flex flex-col gap-3">
      {finished && (
        <p className="text-sm text-ink" data-testid="solvability-status">
          {t(`solvability.status.${check.status}`, { calls: check.used.calls, tokens: check.used.tokens })}
          {check.error ? ` ${check.error}` : ''}
        </p>
      )}
      {groups.map((group) => (
        <ItemGroup key={group.index} name={group.name} items={group.items} index={group.index} check={check} />
      ))}
    </div>
  );
}

function ItemGroup({
  name,
  index,
  items,
  check,
}: {
  name: string | null;
  index: number;
  items: SolvabilityItem[];
  check: SolvabilityCheck;
}) {
  const { t } = useTranslation('assistant');
  const givenAway = items.filter((item) => item.verdict === 'gives-away').length;
  const configuration =
    name === null
      ? null
      : index === 0
        ? t('solvability.ownConfiguration', { name })
        : t('solvability.comparedConfiguration', { number: index, name });
  return (
    <div className="flex flex-col gap-2">
      {configuration && <h4 className="text-sm font-medium text-ink">{configuration}</h4>}
      {check.status !== 'running' && (
        <p className="text-sm font-medium text-ink">
          {givenAway ? t('solvability.givenAwayCount', { count: givenAway }) : t('solvability.noneGivenAway')}
        </p>
      )}
      <ul
        className="flex flex-col gap-2"
        aria-label={configuration ? t('solvability.reportLabelFor', { configuration }) : t('solvability.reportLabel')}
      >
        {items.map((item) => (
          <ItemRow key={item.questionIndex} item={item} running={check.status === 'running'} />
        ))}
      </ul>
    </div>
  );
}

function ItemRow({ item, running }: { item: SolvabilityItem; running: boolean }) {
  const { t } = useTranslation('assistant');
  const pending = running && item.reason === null && item.verdict === 'not-judged';
  return (
    <li className="flex flex-col gap-1 rounded-md border border-line p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-sm font-medium text-ink">
          {t('solvability.question', { number: item.questionIndex + 1, title: item.title })}
        </span>
        <Badge tone={pending ? 'neutral' : VERDICT_TONES[item.verdict]}>
          {pending ? t('solvability.pending') : t(`solvability.verdict.${item.verdict}`)}
        </Badge>
      </div>
      {item.verdict === 'gives-away' && <p className="text-xs text-muted">{t('solvability.advice.givesAway')}</p>}
      {item.verdict === 'hints' && <p className="text-xs text-muted">{t('solvability.advice.hints')}</p>}
      {item.reason && <p className="text-xs text-muted">{t(`solvability.reason.${item.reason}`)}</p>}
      {item.replies.length > 0 && (
        <details>
          <summary className="cursor-pointer text-xs text-brand-700">
            {t('solvability.showReplies', { count: item.replies.length })}
          </summary>
          <ol className="mt-2 flex flex-col gap-2">
            {item.replies.map((reply, i) => (
              <li key={i} className="rounded bg-slate-50 p-2 text-xs">
                <p className="font-medium text-ink">
                  {t('solvability.asked', { phrasing: reply.phrasing })}{' '}
                  <span className="text-muted">({t(`solvability.outcome.${reply.outcome}`)})</span>
                </p>
                <p className="mt-1 whitespace-pre-wrap text-ink">
                  {reply.text}
                  {reply.truncated ? '…' : ''}
                </p>
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}
