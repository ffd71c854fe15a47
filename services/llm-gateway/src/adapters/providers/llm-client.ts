import type { AiProvider } from '@exam/domain/ai-catalogue';
import { anthropicAdapter } from './anthropic.ts';
import type { BaseUrlGuard } from './base-url-guard.ts';
import { googleAdapter } from './google.ts';
import { openAiAdapter } from './openai.ts';
import { UpstreamError, type LlmClient, type ProviderAdapter, type StreamChunk } from './types.ts';

export type ProviderEndpoints = { openai: string; anthropic: string; groq: string; google: string };
export type UpstreamTimeouts = { totalMs: number; firstTokenMs: number };

/** `guard` pins the connections of creators' openai-compatible servers to addresses the SSRF guard allows. */
export function realAdapters(
  endpoints: ProviderEndpoints,
  guard?: Pick<BaseUrlGuard, 'lookup'>,
): Record<AiProvider, ProviderAdapter> {
  return {
    openai: openAiAdapter(endpoints.openai),
    groq: openAiAdapter(endpoints.groq),
    // The creator's base URL always comes with the request; the OpenAI default is never used for it.
    'openai-compatible': openAiAdapter(endpoints.openai, { lookup: guard?.lookup }),
    anthropic: anthropicAdapter(endpoints.anthropic),
    google: googleAdapter(endpoints.google),
  };
}

function toUpstreamError(err: unknown): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const status = (err as { status?: unknown }).status;
  return new UpstreamError(
    err instanceof Error ? err.message : String(err),
    typeof status === 'number' ? status : undefined,
  );
}

/**
 * Routes a request to its provider's adapter and bounds it in time: no first token within
 * firstTokenMs, or no end within totalMs, aborts the upstream call. A caller's abort (the candidate
 * left) stops it as well.
 */
export function createLlmClient(adapters: Record<AiProvider, ProviderAdapter>, timeouts: UpstreamTimeouts): LlmClient {
  return {
    async *stream(request, signal) {
      const controller = new AbortController();
      const forwardAbort = () => controller.abort(signal.reason);
      if (signal.aborted) controller.abort(signal.reason);
      else signal.addEventListener('abort', forwardAbort, { once: true });
      let timedOut: string | undefined;
      const deadline = (what: string, ms: number) =>
        setTimeout(() => {
          timedOut = what;
          controller.abort(new UpstreamError(`upstream ${what} timed out after ${ms} ms`));
        }, ms);
      const total = deadline('reply', timeouts.totalMs);
      let firstToken: NodeJS.Timeout | undefined = deadline('first token', timeouts.firstTokenMs);
      const iterator = adapters[request.provider](request, controller.signal)[Symbol.asyncIterator]();
      // A body read does not always end when its request is aborted (a stalled socket, a mocked stream), so each
      // read is given up when the call is aborted. Not with Promise.race against one promise of the abort: each race
      // leaves a reaction on that promise until the call ends (one per token), and cost more than the rest of the
      // token's way through this loop.
      const abortedError = () => new UpstreamError('upstream call aborted');
      let giveUp: ((err: unknown) => void) | undefined;
      controller.signal.addEventListener('abort', () => giveUp?.(abortedError()), { once: true });
      const read = () =>
        new Promise<IteratorResult<StreamChunk>>((resolve, reject) => {
          if (controller.signal.aborted) return reject(abortedError());
          giveUp = reject;
          iterator.next().then(resolve, reject);
        });
      let finished = false;
      try {
        for (;;) {
          const next = await read();
          giveUp = undefined;
          if (next.done) {
            finished = true;
            break;
          }
          const chunk = next.value;
          if (chunk.type === 'delta' && firstToken) {
            clearTimeout(firstToken);
            firstToken = undefined;
          }
          yield chunk;
        }
        if (timedOut) throw new UpstreamError(`upstream ${timedOut} timed out`);
      } catch (err) {
        if (timedOut) throw new UpstreamError(`upstream ${timedOut} timed out`);
        throw toUpstreamError(err);
      } finally {
        // The consumer stopped early or the call failed: release the adapter without waiting on a stalled read.
        if (!finished) void iterator.return?.().catch(() => {});
        clearTimeout(total);
        clearTimeout(firstToken);
        signal.removeEventListener('abort', forwardAbort);
      }
    },
  };
}
