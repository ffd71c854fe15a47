import { totalEstimate, type AuditConfiguration, type AuditEstimate } from '@exam/domain/assistant-audit';
import { costUsd } from '@exam/domain/ai-catalogue';
import type { TokenUsage } from '@exam/domain/llm';
import type { Question } from '@exam/domain/question';
import type { ProviderMessage, ProviderRequest } from '../../adapters/providers/types.ts';
import type { PlannedItem } from './audit-report.ts';
import { AUDIT_BATTERY_VERSION, attemptsFor, type AuditAttempt } from './battery.ts';

/** One attempt of the battery against one item under one configuration: the unit the run records. */
export type AuditTask = { configuration: number; questionIndex: number; attempt: AuditAttempt };
export type AuditPlan = { items: PlannedItem[]; tasks: AuditTask[]; keyedItems: number };

export const taskKey = (t: { configuration: number; questionIndex: number; attemptId: string }) =>
  `${t.configuration}:${t.questionIndex}:${t.attemptId}`;

/**
 * Every configuration (0, the exam's own, first), every keyed item in exam order, every attempt of the battery:
 * configurations are compared on the same attempts.
 */
export function planAudit(questions: readonly Question[], configurations: number): AuditPlan {
  const batteries = questions.map((question, index) => ({ question, index, attempts: attemptsFor(question, index) }));
  const keyed = batteries.filter((b) => b.attempts.length > 0);
  const items: PlannedItem[] = [];
  const tasks: AuditTask[] = [];
  for (let configuration = 0; configuration < configurations; configuration++)
    for (const { question, index, attempts } of keyed) {
      items.push({
        configuration,
        questionIndex: index,
        questionId: question.id,
        title: question.title || `Question ${index + 1}`,
        type: question.type,
        attempts: attempts.length,
      });
      for (const attempt of attempts) tasks.push({ configuration, questionIndex: index, attempt });
    }
  return { items, tasks, keyedItems: keyed.length };
}

/**
 * The reply length the estimate assumes for every call, in tokens: a few short paragraphs, what a chat reply to a
 * candidate usually is (prompt.ts caps a reply at MAX_TOKENS, 1000). Most of an audit's tokens are input anyway:
 * the system prompt with the questions and course materials is sent with every call.
 */
export const TYPICAL_REPLY_TOKENS = 250;
/** Characters per token, the rule estimatedUsage (transcript-writer.ts) counts by. */
const CHARS_PER_TOKEN = 4;

export type EstimateInput = {
  plan: AuditPlan;
  /** Per configuration, its assistant as the probe builds its requests (probe.converse). */
  configurations: Array<{
    configuration: AuditConfiguration;
    converse: (questionIndex: number, conversation: ProviderMessage[]) => ProviderRequest;
  }>;
  estimate: (request: ProviderRequest, output: string) => TokenUsage;
  budget: AuditEstimate['budget'];
  /** The run's token cap (never more than the budget has left). */
  cap: number;
};

/**
 * What a run would spend: one call per user turn of every attempt, per configuration. A call's input is the
 * assembled prompt the candidate's chat would send at that turn (system prompt, the turns before with replies
 * of TYPICAL_REPLY_TOKENS, the turn), counted as estimatedUsage counts it (characters / 4); its output
 * TYPICAL_REPLY_TOKENS. Costs are the catalogue's list prices (null for a model without a known price).
 */
export function estimateAudit(input: EstimateInput): AuditEstimate {
  const typicalReply = 'x'.repeat(TYPICAL_REPLY_TOKENS * CHARS_PER_TOKEN);
  const configurations = input.configurations.map(({ configuration, converse }, index) => {
    const baseOf = new Map<number, ProviderRequest>();
    let calls = 0;
    let inputTokens = 0;
    for (const task of input.plan.tasks) {
      if (task.configuration !== index) continue;
      let base = baseOf.get(task.questionIndex);
      if (base === undefined) {
        // The system prompt depends on the item in focus only: assembled once per item.
        base = converse(task.questionIndex, [{ role: 'user', content: '' }]);
        baseOf.set(task.questionIndex, base);
      }
      const conversation: ProviderMessage[] = [];
      for (const user of task.attempt.turns) {
        conversation.push({ role: 'user', content: user });
        inputTokens += input.estimate({ ...base, messages: conversation }, '').inputTokens;
        calls += 1;
        conversation.push({ role: 'assistant', content: typicalReply });
      }
    }
    const outputTokens = calls * TYPICAL_REPLY_TOKENS;
    return {
      ...configuration,
      calls,
      inputTokens,
      outputTokens,
      costUsd: costUsd(configuration.provider, configuration.model, inputTokens, outputTokens),
    };
  });
  return totalEstimate(
    {
      batteryVersion: AUDIT_BATTERY_VERSION,
      keyedItems: input.plan.keyedItems,
      attempts: input.plan.tasks.length,
      budget: input.budget,
      cap: input.cap,
    },
    configurations,
  );
}
