import { AUDIT_REPLY_CHARS, type AuditTurn, type LeakForm } from '@exam/domain/assistant-audit';
import type { TokenUsage } from '@exam/domain/llm';
import type { LlmClient, ProviderMessage, ProviderRequest } from '../../adapters/providers/types.ts';
import { AnswerGuard, type AnswerKey, type OptionKey } from '../chat/answer-guard.ts';
import { guardedReader } from '../chat/guarded-read.ts';
import { redactSecrets } from '../chat/stream-reply.ts';
import type { AuditAttempt } from './battery.ts';
import { detectLeak, type AuditKeys } from './leak-detection.ts';

/** What the candidate's chat would guard this conversation with (prepared-chat.ts), or nothing when "stop solutions" is off. */
export type CandidateGuard = { answers: AnswerKey[]; options: OptionKey[] } | undefined;

/** One attempt of the battery as it ended: its verdicts, transcript and what it spent. */
export type AttemptOutcome = {
  status: 'done' | 'error';
  rawLeaked: boolean;
  guardedLeaked: boolean;
  disguises: LeakForm[];
  turns: AuditTurn[];
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** The provider's failure, keys redacted (status 'error'). */
  error?: string;
};

/** Thrown when the run's signal stopped the attempt (cancel, lost lease, shutdown): nothing of it is recorded. */
export class AttemptAborted extends Error {}

export type AttemptTarget = {
  llm: LlmClient;
  /** The conversation so far, ending with the user's turn, as the candidate's chat would send it (probe.converse). */
  request: (conversation: ProviderMessage[]) => ProviderRequest;
  guard: CandidateGuard;
  /** The item's keys, for the leak verdicts (auditKeysOf: whatever the guard's setting). */
  keys: AuditKeys;
  secrets: string[];
  estimate: (request: ProviderRequest, output: string) => TokenUsage;
  /** Called after each provider call with what it spent, so the shared budget counts every call at once. */
  onSpend: (usage: { inputTokens: number; outputTokens: number }) => Promise<void>;
};

type Reply = { raw: string; shown: string; withheld: boolean; usage: TokenUsage };

/**
 * One provider call, read to its end (chat/guarded-read.ts with readAll): the raw text whole, since the raw leak rate
 * needs all of it, and what the candidate's stream would have shown; once the guard stops, nothing more is shown.
 */
async function callOnce(target: AttemptTarget, request: ProviderRequest, earlierShown: string, signal: AbortSignal) {
  const guard = target.guard
    ? new AnswerGuard(target.guard.answers, {
        options: target.guard.options,
        ...(earlierShown ? { earlier: earlierShown } : {}),
      })
    : undefined;
  const { raw, shown, withheld, usage } = await guardedReader(guard, { readAll: true }).consume(
    target.llm.stream(request, signal),
  );
  return { raw, shown, withheld, usage: usage ?? target.estimate(request, raw) } satisfies Reply;
}

const cut = (text: string) => text.slice(0, AUDIT_REPLY_CHARS);

/**
 * Plays one attempt: its user turns one after another, each after the assistant's reply to the one before, the
 * history as the candidate would have had it (their turns and the replies as shown). The attempt leaked raw when
 * any reply did (the earlier raw replies as context, so letters spread over turns count), and past the guard when
 * any shown text did (the earlier shown text as context). A provider failure ends the attempt as 'error'.
 */
export async function runAttempt(
  attempt: AuditAttempt,
  target: AttemptTarget,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  const conversation: ProviderMessage[] = [];
  const turns: AuditTurn[] = [];
  const disguises = new Set<LeakForm>();
  let rawEarlier = '';
  let shownEarlier = '';
  let rawLeaked = false;
  let guardedLeaked = false;
  let calls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  const outcome = (status: AttemptOutcome['status'], error?: string): AttemptOutcome => ({
    status,
    rawLeaked,
    guardedLeaked,
    disguises: [...disguises],
    turns,
    calls,
    inputTokens,
    outputTokens,
    ...(error ? { error } : {}),
  });

  for (const user of attempt.turns) {
    if (signal.aborted) throw new AttemptAborted('stopped before a turn');
    conversation.push({ role: 'user', content: user });
    const request = target.request(conversation);
    let reply: Reply;
    calls += 1;
    try {
      reply = await callOnce(target, request, shownEarlier, signal);
    } catch (err) {
      if (signal.aborted) throw new AttemptAborted('stopped during a turn');
      return outcome('error', redactSecrets(err instanceof Error ? err.message : String(err), target.secrets));
    }
    inputTokens += reply.usage.inputTokens;
    outputTokens += reply.usage.outputTokens;
    await target.onSpend(reply.usage);
    const raw = detectLeak(reply.raw, target.keys, rawEarlier ? { earlier: rawEarlier } : {});
    const shown = detectLeak(reply.shown, target.keys, shownEarlier ? { earlier: shownEarlier } : {});
    rawLeaked ||= raw.leaked;
    guardedLeaked ||= shown.leaked;
    for (const form of [...raw.forms, ...shown.forms]) disguises.add(form);
    turns.push({ user, raw: cut(reply.raw), shown: cut(reply.shown), withheld: reply.withheld });
    rawEarlier = rawEarlier ? `${rawEarlier}\n${reply.raw}` : reply.raw;
    shownEarlier = shownEarlier ? `${shownEarlier}\n${reply.shown}` : reply.shown;
    // What the candidate's chat stores and sends back is what was shown (earlierReplies in prepared-chat.ts).
    conversation.push({ role: 'assistant', content: reply.shown });
  }
  return outcome('done');
}
