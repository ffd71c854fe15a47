import type { AiSpend } from '@exam/domain/llm';
import { StatCard } from '@exam/ui/card';
import { Ban, Coins, MessagesSquare } from 'lucide-react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useExamAiUsage } from '../api/get-insights.ts';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../lib/format-number.ts';

function refusalsOf(spend: AiSpend) {
  const r = spend.refusals;
  return { exam: r.examRequests + r.examTokens, attempt: r.attemptMessages + r.attemptTokens };
}

/**
 * The AI assistant's spend on this exam (llm-gateway's exam-wide counters): messages and tokens in the last
 * hour against the exam-wide budget, totals since the first message, and how many messages each budget refused.
 */
export function AssistantSpend({ examId }: { examId: string }) {
  const { t } = useTranslation('insights');
  const usage = useExamAiUsage(examId);
  if (usage.isPending) return null;
  if (usage.isError) {
    return (
      <p role="alert" className="text-sm text-danger">
        {t('assistantSpend.theAssistantSSpend', { message: userMessageOf(usage.error) })}
      </p>
    );
  }
  const { budget, lastHour, total } = usage.data;
  const hour = refusalsOf(lastHour);
  const all = refusalsOf(total);
  return (
    <section aria-label={t('assistantSpend.aiAssistantSpend')} className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">{t('assistantSpend.aiAssistantSpend')}</h2>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          label={t('assistantSpend.messagesLastHour')}
          icon={<MessagesSquare aria-hidden />}
          value={`${formatCount(lastHour.requests)} / ${formatCount(budget.requestsPerHour)}`}
          hint={t('assistantSpend.requestsInTotal', { requests: formatCount(total.requests) })}
        />
        <StatCard
          label={t('assistantSpend.tokensLastHour')}
          icon={<Coins aria-hidden />}
          value={`${formatCount(lastHour.tokens)} / ${formatCount(budget.tokensPerHour)}`}
          hint={t('assistantSpend.tokensInTotal', { tokens: formatCount(total.tokens) })}
        />
        <StatCard
          label={t('assistantSpend.refusedByABudget')}
          icon={<Ban aria-hidden />}
          value={formatCount(hour.exam + hour.attempt)}
          hint={t('assistantSpend.examBudgetExamCandidate', {
            exam: formatCount(hour.exam),
            attempt: formatCount(hour.attempt),
            exam2: formatCount(all.exam),
            attempt2: formatCount(all.attempt),
          })}
        />
      </div>
    </section>
  );
}
