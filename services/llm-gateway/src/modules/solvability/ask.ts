import type { TokenUsage } from '@exam/domain/llm';
import type { LlmClient, ProviderRequest } from '../../adapters/providers/types.ts';
import { AnswerGuard, type AnswerKey } from '../chat/answer-guard.ts';
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
  const guard = answerKeys.length ? new AnswerGuard(answerKeys) : undefined;
  let received = '';
  let shown = '';
  let usage: TokenUsage | undefined;
  let withheld = false;
  try {
    for await (const chunk of llm.stream(request, upstream.signal)) {
      if (chunk.type === 'usage') {
        usage = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens, estimated: false };
        continue;
      }
      received += chunk.text;
      const step = guard ? guard.push(chunk.text) : { release: chunk.text, leak: undefined };
      shown += step.release;
      if (step.leak) {
        withheld = true;
        break;
      }
    }
    if (guard && !withheld) {
      const step = guard.end();
      shown += step.release;
      withheld = Boolean(step.leak);
    }
    if (signal.aborted) throw new AskAborted('stopped during the call');
    return { kind: 'reply', shown, withheld, usage: usage ?? estimate(received) };
  } catch (err) {
    if (signal.aborted || err instanceof AskAborted) throw new AskAborted('stopped during the call');
    const reason = redactSecrets(err instanceof Error ? err.message : String(err), secrets);
    return {
      kind: 'error',
      reason,
      usage: received ? estimate(received) : { inputTokens: 0, outputTokens: 0, estimated: true },
    };
  } finally {
    signal.removeEventListener('abort', stop);
    if (withheld) upstream.abort();
  }
}
