import { describe, expect, it } from 'vitest';
import { LlmMessages, type ChatStreamEvent } from '@exam/domain/llm';
import { chatFailureMessage, isFinalChatEvent, readChatResponse, readChatStream } from './llm-stream.ts';

const encoder = new TextEncoder();

/** A body that hands out the given chunks one read at a time, and records whether it was cancelled. */
function bodyOf(chunks: Array<string | Uint8Array>) {
  const state = { cancelled: false, reads: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[state.reads++];
      if (next === undefined) controller.close();
      else controller.enqueue(typeof next === 'string' ? encoder.encode(next) : next);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of readChatStream(stream)) events.push(event);
  return events;
}

const frame = (event: ChatStreamEvent) => `data: ${JSON.stringify(event)}\n\n`;
const done: ChatStreamEvent = {
  type: 'done',
  messageId: 'm-1',
  usage: { inputTokens: 3, outputTokens: 2, estimated: false },
};

describe('readChatStream', () => {
  it('yields every event in order when frames arrive whole', async () => {
    const { stream } = bodyOf([
      frame({ type: 'delta', text: 'Hel' }),
      frame({ type: 'delta', text: 'lo' }),
      frame(done),
    ]);
    expect(await collect(stream)).toEqual([{ type: 'delta', text: 'Hel' }, { type: 'delta', text: 'lo' }, done]);
  });

  it('joins frames split across chunks, including a split multi-byte character', async () => {
    const whole = encoder.encode(frame({ type: 'delta', text: 'café ✓' }) + frame(done));
    const cut = whole.indexOf(0xc3) + 1; // inside the two bytes of 'é'
    const { stream } = bodyOf([whole.slice(0, 5), whole.slice(5, cut), whole.slice(cut)]);
    expect(await collect(stream)).toEqual([{ type: 'delta', text: 'café ✓' }, done]);
  });

  it('yields a frame as soon as it is complete, before the stream ends', async () => {
    let release: () => void = () => undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(frame({ type: 'delta', text: 'first' })));
        release = () => {
          controller.enqueue(encoder.encode(frame(done)));
          controller.close();
        };
      },
    });
    const iterator = readChatStream(stream);
    expect((await iterator.next()).value).toEqual({ type: 'delta', text: 'first' });
    release();
    expect((await iterator.next()).value).toEqual(done);
    expect((await iterator.next()).done).toBe(true);
  });

  it('reads CRLF line ends, also when a CRLF is split between chunks', async () => {
    const crlf = `data: ${JSON.stringify({ type: 'delta', text: 'a' })}\r\n\r\ndata: ${JSON.stringify(done)}\r\n\r\n`;
    const split = crlf.indexOf('\r\n\r\n') + 1;
    const { stream } = bodyOf([crlf.slice(0, split), crlf.slice(split)]);
    expect(await collect(stream)).toEqual([{ type: 'delta', text: 'a' }, done]);
  });

  it('skips comments, unknown events and frames that are not JSON', async () => {
    const { stream } = bodyOf([
      ': keep-alive\n\n',
      'data: {"type":"surprise"}\n\n',
      'data: not json\n\n',
      frame({ type: 'error', message: 'Boom' }),
    ]);
    expect(await collect(stream)).toEqual([{ type: 'error', message: 'Boom' }]);
  });

  it('reads a last frame that has no blank line after it', async () => {
    const { stream } = bodyOf([frame({ type: 'delta', text: 'x' }), `data: ${JSON.stringify(done)}`]);
    expect(await collect(stream)).toEqual([{ type: 'delta', text: 'x' }, done]);
  });

  it('cancels the body when the reader stops early', async () => {
    const { stream, state } = bodyOf([
      frame({ type: 'delta', text: 'one' }),
      frame({ type: 'delta', text: 'two' }),
      frame(done),
    ]);
    for await (const event of readChatStream(stream)) {
      expect(event).toEqual({ type: 'delta', text: 'one' });
      break;
    }
    expect(state.cancelled).toBe(true);
  });
});

describe('isFinalChatEvent', () => {
  it('is true for done and error events and false for deltas', () => {
    expect(isFinalChatEvent(done)).toBe(true);
    expect(isFinalChatEvent({ type: 'error', message: 'x' })).toBe(true);
    expect(isFinalChatEvent({ type: 'delta', text: 'x' })).toBe(false);
  });
});

describe('chatFailureMessage', () => {
  it("shows the service's message for budget, not-enabled, incomplete and closed refusals", () => {
    const body = (message: string) => ({ error: { code: 'X', message } });
    expect(chatFailureMessage(429, body('You have reached the limit.'))).toBe('You have reached the limit.');
    expect(chatFailureMessage(403, body(LlmMessages.notEnabled))).toBe(LlmMessages.notEnabled);
    expect(chatFailureMessage(409, body('Not configured.'))).toBe('Not configured.');
  });

  it('falls back to the spec error reply for server errors and bodies that are not error bodies', () => {
    expect(chatFailureMessage(500, { error: { code: 'INTERNAL', message: 'Internal Server Error' } })).toBe(
      LlmMessages.chatError,
    );
    expect(chatFailureMessage(429, 'slow down')).toBe(LlmMessages.chatError);
    expect(chatFailureMessage(401, { error: { code: 'UNAUTHORIZED', message: 'Bad token' } })).toBe(
      LlmMessages.chatError,
    );
  });
});

describe('readChatResponse', () => {
  const collectResponse = async (response: Response) => {
    const events: ChatStreamEvent[] = [];
    for await (const event of readChatResponse(response)) events.push(event);
    return events;
  };

  it('yields the streamed events up to the final one', async () => {
    const { stream } = bodyOf([
      frame({ type: 'delta', text: 'Hi' }),
      frame(done),
      frame({ type: 'delta', text: 'ignored' }),
    ]);
    const response = new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    expect(await collectResponse(response)).toEqual([{ type: 'delta', text: 'Hi' }, done]);
  });

  it('ends with the spec error reply when the stream stops without a final event', async () => {
    const { stream } = bodyOf([frame({ type: 'delta', text: 'Hal' })]);
    expect(await collectResponse(new Response(stream))).toEqual([
      { type: 'delta', text: 'Hal' },
      { type: 'error', message: LlmMessages.chatError },
    ]);
  });

  it('ends with the spec error reply when the gateway interrupts the stream (it is shutting down)', async () => {
    const { stream } = bodyOf([frame({ type: 'delta', text: 'Hal' }), frame({ type: 'interrupted' })]);
    expect(await collectResponse(new Response(stream))).toEqual([
      { type: 'delta', text: 'Hal' },
      { type: 'error', message: LlmMessages.chatError },
    ]);
  });

  it('ends with the spec error reply when the connection breaks mid-stream', async () => {
    let reads = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (reads++ === 0) controller.enqueue(encoder.encode(frame({ type: 'delta', text: 'a' })));
        else controller.error(new TypeError('network error'));
      },
    });
    expect(await collectResponse(new Response(stream))).toEqual([
      { type: 'delta', text: 'a' },
      { type: 'error', message: LlmMessages.chatError },
    ]);
  });

  it("turns a refused request into one error event with the service's message", async () => {
    const response = Response.json(
      { error: { code: 'RATE_LIMITED', message: 'Please wait 3 minutes.' } },
      { status: 429 },
    );
    expect(await collectResponse(response)).toEqual([{ type: 'error', message: 'Please wait 3 minutes.' }]);
  });
});
