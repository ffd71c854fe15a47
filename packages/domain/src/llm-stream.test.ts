import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from './llm.ts';
import { isFinalChatEvent, readChatStream } from './llm-stream.ts';

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
const done: ChatStreamEvent = { type: 'done', messageId: 'm-1', usage: { inputTokens: 3, outputTokens: 2, estimated: false } };

describe('readChatStream', () => {
  it('yields every event in order when frames arrive whole', async () => {
    const { stream } = bodyOf([frame({ type: 'delta', text: 'Hel' }), frame({ type: 'delta', text: 'lo' }), frame(done)]);
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
    const { stream } = bodyOf([': keep-alive\n\n', 'data: {"type":"surprise"}\n\n', 'data: not json\n\n', frame({ type: 'error', message: 'Boom' })]);
    expect(await collect(stream)).toEqual([{ type: 'error', message: 'Boom' }]);
  });

  it('reads a last frame that has no blank line after it', async () => {
    const { stream } = bodyOf([frame({ type: 'delta', text: 'x' }), `data: ${JSON.stringify(done)}`]);
    expect(await collect(stream)).toEqual([{ type: 'delta', text: 'x' }, done]);
  });

  it('cancels the body when the reader stops early', async () => {
    const { stream, state } = bodyOf([frame({ type: 'delta', text: 'one' }), frame({ type: 'delta', text: 'two' }), frame(done)]);
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
