import { describe, expect, it } from 'vitest';
import { sendChatWithRetry, newClientMessageId, type ChatFetch, type ChatReplyEvent } from './chat-retry.ts';
import { LlmMessages, type ChatRequest, type ChatStreamEvent } from '@exam/domain/llm';

const encoder = new TextEncoder();
const frame = (event: ChatStreamEvent) => `data: ${JSON.stringify(event)}\n\n`;
const done: ChatStreamEvent = {
  type: 'done',
  messageId: 'm-1',
  usage: { inputTokens: 3, outputTokens: 2, estimated: false },
};

/** An SSE response whose body is the given frames, then either its end or a broken connection. */
function sse(frames: string[], end: 'close' | 'error' = 'close'): Response {
  const queue = [...frames];
  // One frame per read, so a broken connection comes after the frames that did arrive.
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next !== undefined) controller.enqueue(encoder.encode(next));
      else if (end === 'close') controller.close();
      else controller.error(new TypeError('terminated'));
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
}

type Answer = Response | Error;

/** A fetch that answers each call with the next answer, and records what was sent. */
function scriptedFetch(answers: Answer[]) {
  const sent: Array<{ url: string; body: ChatRequest; headers: Record<string, string> }> = [];
  const fetch: ChatFetch = async (url, init) => {
    sent.push({
      url,
      body: JSON.parse(String(init.body)) as ChatRequest,
      headers: init.headers as Record<string, string>,
    });
    const answer = answers.shift();
    if (!answer) throw new Error('no more answers');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetch, sent };
}

async function run(answers: Answer[], body: ChatRequest = { message: 'Hi', questionIndex: 0 }) {
  const { fetch, sent } = scriptedFetch(answers);
  const waits: number[] = [];
  const events: ChatReplyEvent[] = [];
  for await (const event of sendChatWithRetry({
    fetch,
    url: '/api/llm/chat',
    headers: { authorization: 'Bearer t' },
    body,
    sleep: async (ms) => {
      waits.push(ms);
    },
  }))
    events.push(event);
  return { events, sent, waits };
}

describe('sendChatWithRetry', () => {
  it('sends one request with a fresh clientMessageId and yields the reply when nothing breaks', async () => {
    const { events, sent, waits } = await run([sse([frame({ type: 'delta', text: 'Hello' }), frame(done)])]);
    expect(events).toEqual([{ type: 'delta', text: 'Hello' }, done]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.clientMessageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0]!.headers).toMatchObject({ authorization: 'Bearer t', 'content-type': 'application/json' });
    expect(waits).toEqual([]);
  });

  it('retries with the same clientMessageId after an interrupted event, a cut stream and a 503', async () => {
    const { events, sent, waits } = await run([
      sse([frame({ type: 'delta', text: 'Hel' }), frame({ type: 'interrupted' })]),
      sse([frame({ type: 'delta', text: 'He' })], 'error'),
      new Response(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'down' } }), { status: 503 }),
      sse([frame({ type: 'delta', text: 'Hello' }), frame(done)]),
    ]);
    expect(events).toEqual([
      { type: 'delta', text: 'Hel' },
      { type: 'reconnecting', attempt: 1, delayMs: 500 },
      { type: 'delta', text: 'He' },
      { type: 'reconnecting', attempt: 2, delayMs: 1000 },
      { type: 'reconnecting', attempt: 3, delayMs: 2000 },
      { type: 'delta', text: 'Hello' },
      done,
    ]);
    expect(waits).toEqual([500, 1000, 2000]);
    const ids = new Set(sent.map((s) => s.body.clientMessageId));
    expect(sent).toHaveLength(4);
    expect(ids.size).toBe(1);
  });

  it('retries a stream that ends without a final event and a network error, keeping the caller’s id', async () => {
    const id = newClientMessageId();
    const { events, sent } = await run(
      [sse([frame({ type: 'delta', text: 'par' })]), new TypeError('fetch failed'), sse([frame(done)])],
      { message: 'Hi', questionIndex: null, clientMessageId: id },
    );
    expect(events.at(-1)).toEqual(done);
    expect(sent.map((s) => s.body.clientMessageId)).toEqual([id, id, id]);
  });

  it('ends with the spec’s error reply when every try fails', async () => {
    const { events, sent } = await run([
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
    ]);
    expect(sent).toHaveLength(4);
    expect(events.filter((e) => e.type === 'reconnecting')).toHaveLength(3);
    expect(events.at(-1)).toEqual({ type: 'error', message: LlmMessages.chatError });
  });

  it('does not retry a refusal or an error reply', async () => {
    const refused = await run([
      new Response(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Wait a minute.' } }), { status: 429 }),
    ]);
    expect(refused.events).toEqual([{ type: 'error', message: 'Wait a minute.' }]);
    expect(refused.sent).toHaveLength(1);
    const failed = await run([sse([frame({ type: 'error', message: LlmMessages.chatError })])]);
    expect(failed.events).toEqual([{ type: 'error', message: LlmMessages.chatError }]);
    expect(failed.sent).toHaveLength(1);
  });

  it('stops quietly when the caller aborts while it waits to retry', async () => {
    const controller = new AbortController();
    const { fetch, sent } = scriptedFetch([new TypeError('fetch failed'), sse([frame(done)])]);
    const events: ChatReplyEvent[] = [];
    const reading = (async () => {
      for await (const event of sendChatWithRetry({
        fetch,
        url: '/api/llm/chat',
        body: { message: 'Hi', questionIndex: 0 },
        signal: controller.signal,
        retryDelaysMs: [60_000],
      })) {
        events.push(event);
        if (event.type === 'reconnecting') controller.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toHaveLength(1);
  });
});

describe('newClientMessageId', () => {
  it('makes a version 4 UUID', () => {
    expect(newClientMessageId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
