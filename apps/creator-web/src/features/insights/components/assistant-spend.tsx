import type { AiSpend } from '@exam/domain/llm';
import { StatCard } from '@exam/ui/card';
import { Ban, Coins, MessagesSquare } from 'lucide-react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useExamAiUsage } from '../api/insights-queries.ts';

const number = new Intl.NumberFormat('en-US');

function refusalsOf(spend: AiSpend) {
  const r = spend.refusals;
  return { exam: r.examRequests + r.examTokens, attempt: r.attemptMessages + r.attemptTokens };
}

/**
 * The AI assistant's spend on this exam (llm-gateway's exam-wide counters): messages and tokens in the last
 * hour against the exam-wide budget, totals since the first message, and how many messages each budget refused.
 */
export function AssistantSpend({ examId }: { examId: string }) {
  const usage = useExamAiUsage(examId);
  if (usage.isPending) return null;
  if (usage.isError) {
    return (
      <p role="alert" className="text-sm text-danger">
        The assistant&apos;s spend could not be loaded: {userMessageOf(usage.error)}
      </p>
    );
  }
  const { budget, lastHour, total } = usage.data;
  const hour = refusalsOf(lastHour);
  const all = refusalsOf(total);
  return (
    <section aria-label="AI Assistant Spend" className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">AI Assistant Spend</h2>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          label="Messages, last hour"
          icon={<MessagesSquare aria-hidden />}
          value={`${number.format(lastHour.requests)} / ${number.format(budget.requestsPerHour)}`}
          hint={`${number.format(total.requests)} in total`}
        />
        <StatCard
          label="Tokens, last hour"
          icon={<Coins aria-hidden />}
          value={`${number.format(lastHour.tokens)} / ${number.format(budget.tokensPerHour)}`}
          hint={`${number.format(total.tokens)} in total`}
        />
        <StatCard
          label="Refused by a budget, last hour"
          icon={<Ban aria-hidden />}
          value={number.format(hour.exam + hour.attempt)}
          hint={`Exam budget ${number.format(hour.exam)} · candidate budgets ${number.format(hour.attempt)}; in total ${number.format(all.exam)} and ${number.format(all.attempt)}`}
        />
      </div>
    </section>
  );
}
