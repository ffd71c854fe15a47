import type { TokenUsage } from '@exam/domain/llm';
import type { LlmClient, ProviderRequest } from '../../adapters/providers/types.ts';
import { AnswerGuard, type AnswerKey } from '../chat/answer-guard.ts';
import { guardedReader } from '../chat/guarded-read.ts';
import { redactSecrets } from '../chat/stream-reply.ts';

/** One reply as the candidate would have received it. */
export type AskedReply =
  | { kind: 'reply'; shown: string; withheld: boolean; usage: TokenUsage }
  /** The provider failed (the candidate would have seen the chat's error reply); reason has the keys redacted. */
  | { kind: 'error'; reason: string; usage: TokenUsage };

/** Thrown when the caller's signal stopped the call (cancel, lost lease, shutdown). */
export class AskAborted extends Error {}

/**
 * Sends one message and reads the whole reply through the same "stop solutions" guard as the candidate's
 * stream (stream-reply.ts): the text released before a key is what the candidate would have seen, and a reply
 * about to give a key away is cut there and marked withheld.
 */
export async function askOnce(
  llm: LlmClient,
  request: ProviderRequest,
  answerKeys: AnswerKey[],
  secrets: string[],
  signal: AbortSignal,
  estimate: (output: string) => TokenUsage,
): Promise<AskedReply> {
  const upstream = new AbortController();
  const stop = () => upstream.abort(signal.reason);
  if (signal.aborted) throw new AskAborted('stopped before the call');
  signal.addEventListener('abort', stop, { once: true });
  const reader = guardedReader(answerKeys.length ? new AnswerGuard(answerKeys) : undefined, { readAll: false });
  try {
    const { shown, withheld, usage, raw } = await reader.consume(llm.stream(request, upstream.signal));
    if (signal.aborted) throw new AskAborted('stopped during the call');
    return { kind: 'reply', shown, withheld, usage: usage ?? estimate(raw) };
  } catch (err) {
    if (signal.aborted || err instanceof AskAborted) throw new AskAborted('stopped during the call');
    const reason = redactSecrets(err instanceof Error ? err.message : String(err), secrets);
    return {
      kind: 'error',
      reason,
      usage: reader.read.raw ? estimate(reader.read.raw) : { inputTokens: 0, outputTokens: 0, estimated: true },
    };
  } finally {
    signal.removeEventListener('abort', stop);
    if (reader.read.withheld) upstream.abort();
  }
}
