import { LlmMessages, type ChatRequest, type ChatStreamEvent } from '@exam/domain/llm';
import { chatFailureMessage, isFinalChatEvent, readChatStream } from './llm-stream.ts';

/** The waits before the second, third and fourth try of one message. */
export const CHAT_RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];

/**
 * Answers that mean "this replica could not answer, another may": the web server's 503 for a service it cannot
 * reach, a replica shutting down, a proxy's 502/504. A refusal (budget, closed attempt) is not retried.
 */
const RETRIABLE_STATUSES = new Set([502, 503, 504]);

/**
 * What sendChatWithRetry yields: the reply's events, and `reconnecting` before each new try, which means "drop
 * the partial reply shown so far, it will arrive again from the start". Never `interrupted`.
 */
export type ChatReplyEvent =
  Exclude<ChatStreamEvent, { type: 'interrupted' }> | { type: 'reconnecting'; attempt: number; delayMs: number };

export type ChatFetch = (url: string, init: RequestInit) => Promise<Response>;

export type SendChatOptions = {
  /** window.fetch in a browser, globalThis.fetch (or an undici dispatcher's) in Node. */
  fetch: ChatFetch;
  /** POST /api/llm/chat, absolute or relative to the page. */
  url: string;
  /** Sent with every try; the attempt token goes here as `authorization: Bearer …`. */
  headers?: Record<string, string>;
  /** The message; a clientMessageId is added when it has none, and every try sends the same one. */
  body: ChatRequest;
  /** Aborting stops the reply quietly (the generator throws the AbortError). */
  signal?: AbortSignal;
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

type TryOutcome = 'final' | 'retry';

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A random (version 4) UUID. crypto.randomUUID exists only in secure contexts (HTTPS, localhost); a page served
 * over plain HTTP on another host still has getRandomValues (RFC 9562, section 5.4, for the version and variant bits).
 */
export function newClientMessageId(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One try: yields its events and says whether the reply ended or the message must be sent again. */
async function* tryOnce(opts: SendChatOptions, body: ChatRequest): AsyncGenerator<ChatReplyEvent, TryOutcome> {
  let response: Response;
  try {
    response = await opts.fetch(opts.url, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...opts.headers },
      body: JSON.stringify(body),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (error) {
    if (opts.signal?.aborted) throw error;
    return 'retry';
  }
  if (!response.ok) {
    if (RETRIABLE_STATUSES.has(response.status)) {
      // Not awaited: some fetch implementations settle a cancelled body only once it is read to the end.
      void response.body?.cancel().catch(() => undefined);
      return 'retry';
    }
    const refusal: unknown = await response.json().catch(() => undefined);
    yield { type: 'error', message: chatFailureMessage(response.status, refusal) };
    return 'final';
  }
  if (!response.body) return 'retry';
  try {
    for await (const event of readChatStream(response.body)) {
      if (event.type === 'interrupted') return 'retry';
      yield event;
      if (isFinalChatEvent(event)) return 'final';
    }
  } catch (error) {
    if (opts.signal?.aborted) throw error;
  }
  // The stream stopped without its final event: the replica was killed, or the connection broke.
  return 'retry';
}

/**
 * Sends one chat message (POST /api/llm/chat) and yields its reply as it streams, retrying the same message
 * (same clientMessageId, so the gateway neither counts it twice nor stores two replies) when the stream is
 * cut: a network error, a 502/503/504, an `interrupted` event, or a stream that ends without done, error or
 * withheld. Before each new try it yields `reconnecting`; after the last try fails it yields the spec's error
 * reply (LlmMessages.chatError). Always ends with `done`, `withheld` or `error`.
 */
export async function* sendChatWithRetry(opts: SendChatOptions): AsyncGenerator<ChatReplyEvent, void, undefined> {
  const body: ChatRequest = { ...opts.body, clientMessageId: opts.body.clientMessageId ?? newClientMessageId() };
  const delays = opts.retryDelaysMs ?? CHAT_RETRY_DELAYS_MS;
  const sleep = opts.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt++) {
    const outcome = yield* tryOnce(opts, body);
    if (outcome === 'final') return;
    const delayMs = delays[attempt];
    if (delayMs === undefined) {
      yield { type: 'error', message: LlmMessages.chatError };
      return;
    }
    yield { type: 'reconnecting', attempt: attempt + 1, delayMs };
    await sleep(delayMs, opts.signal);
  }
}
