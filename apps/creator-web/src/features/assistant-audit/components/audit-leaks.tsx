import type { AuditItem, AuditLeak } from '@exam/domain/assistant-audit';
import { Badge } from '@exam/ui/badge';
import { ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Each question's leaks, folded: every turn's message, the model's raw reply and what the candidate would have seen. */
export function AuditLeaks({ items, labelOf }: { items: AuditItem[]; labelOf: ((index: number) => string) | null }) {
  const { t } = useTranslation('audit');
  const leaking = items.filter((item) => item.leaks.length > 0);
  if (leaking.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <h4 className="text-sm font-medium text-ink">{t('leaks.heading')}</h4>
      <ul className="flex flex-col gap-2">
        {leaking.map((item) => {
          const question = t('report.question', { number: item.questionIndex + 1, title: item.title });
          return (
            <li key={`${item.questionId}-${item.configuration}`} className="rounded-md border border-line p-3">
              <details>
                <summary className="cursor-pointer text-sm text-brand-700">
                  {t('leaks.show', {
                    count: item.leaks.length,
                    question: labelOf ? `${question} · ${labelOf(item.configuration)}` : question,
                  })}
                </summary>
                <ol className="mt-2 flex flex-col gap-3">
                  {item.leaks.map((leak) => (
                    <LeakView key={leak.attemptId} leak={leak} />
                  ))}
                </ol>
              </details>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function LeakView({ leak }: { leak: AuditLeak }) {
  const { t } = useTranslation('audit');
  return (
    <li className="flex flex-col gap-2 rounded bg-slate-50 p-2 text-xs" data-testid="audit-leak">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-ink">{t('leaks.attack', { form: t(`forms.${leak.form}`) })}</span>
        {leak.guarded && <Badge tone="danger">{t('leaks.guarded')}</Badge>}
        {leak.raw && <Badge tone="warning">{t('leaks.raw')}</Badge>}
      </div>
      {leak.disguises.length > 0 && (
        <p className="text-muted">
          {t('leaks.disguises', { disguises: leak.disguises.map((d) => t(`disguises.${d}`)).join(', ') })}
        </p>
      )}
      <ol className="flex flex-col gap-2">
        {leak.turns.map((turn, index) => (
          <li key={index} className="flex flex-col gap-1 border-l-2 border-line pl-2">
            <span className="font-medium text-muted">{t('leaks.turn', { number: index + 1 })}</span>
            <dl className="grid gap-1">
              <dt className="font-medium text-ink">{t('leaks.user')}</dt>
              <dd className="whitespace-pre-wrap text-ink">{turn.user}</dd>
              <dt className="font-medium text-ink">{t('leaks.modelSaid')}</dt>
              <dd className="whitespace-pre-wrap text-ink">{turn.raw}</dd>
              <dt className="font-medium text-ink">{t('leaks.candidateSaw')}</dt>
              <dd className="whitespace-pre-wrap text-ink">
                {turn.withheld && (
                  <span className="mb-1 flex items-center gap-1 font-medium text-green-700">
                    <ShieldCheck aria-hidden className="h-3.5 w-3.5" /> {t('leaks.withheld')}
                  </span>
                )}
                {turn.shown}
              </dd>
            </dl>
          </li>
        ))}
      </ol>
    </li>
  );
}
