import type { AuditEstimate } from '@exam/domain/assistant-audit';
import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { configurationName } from '../../../lib/ai-configuration.ts';
import { formatCount, formatUsd } from '../lib/format.ts';

/** What the audit would spend before it runs, against the exam's grading and audit budget. */
export function AuditEstimateView({ estimate }: { estimate: AuditEstimate }) {
  const { t } = useTranslation('audit');
  return (
    <div className="flex flex-col gap-1 rounded-md bg-slate-50 p-3 text-sm text-ink" data-testid="audit-estimate">
      <h4 className="font-medium">{t('estimate.heading')}</h4>
      <p>
        {t('estimate.summary', {
          attempts: formatCount(estimate.attempts),
          items: formatCount(estimate.keyedItems),
          calls: formatCount(estimate.calls),
          inputTokens: formatCount(estimate.inputTokens),
          outputTokens: formatCount(estimate.outputTokens),
        })}{' '}
        {estimate.costUsd === null
          ? t('estimate.priceUnknown')
          : t('estimate.cost', { cost: formatUsd(estimate.costUsd) })}
      </p>
      {estimate.configurations.length > 1 && (
        <ul aria-label={t('estimate.perConfigurationLabel')} className="list-disc pl-5 text-xs text-muted">
          {estimate.configurations.map((configuration, index) => (
            <li key={index}>
              {t('estimate.perConfiguration', {
                label: configurationName(configuration),
                calls: formatCount(configuration.calls),
                tokens: formatCount(configuration.inputTokens + configuration.outputTokens),
                cost: configuration.costUsd === null ? t('estimate.unknownCost') : formatUsd(configuration.costUsd),
              })}
            </li>
          ))}
        </ul>
      )}
      <p>
        {t('estimate.budget', {
          remaining: formatCount(estimate.budget.remaining),
          limit: formatCount(estimate.budget.limit),
        })}
      </p>
      {!estimate.fits && (
        <p className="flex items-start gap-2 text-yellow-800">
          <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" /> {t('estimate.doesNotFit')}
        </p>
      )}
    </div>
  );
}
