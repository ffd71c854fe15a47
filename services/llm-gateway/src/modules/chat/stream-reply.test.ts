import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redactSecrets, SseWriter, StreamsEnd } from './stream-reply.ts';

describe('redactSecrets', () => {
  it('removes every occurrence of each key from a log text', () => {
    const text =
      'upstream answered 401: Incorrect API key provided: sk-canary-123456. Key sk-canary-123456 again; server sk-server-999';
    const redacted = redactSecrets(text, ['sk-canary-123456', 'sk-server-999']);
    expect(redacted).not.toContain('sk-canary-123456');
    expect(redacted).not.toContain('sk-server-999');
    expect(redacted.match(/\[redacted\]/g)).toHaveLength(3);
  });

  it('leaves a text alone when the key is too short to be a real one', () => {
    expect(redactSecrets('none of this', ['no'])).toBe('none of this');
  });
});

/** A stream that records each write it hands to the "socket": a corked batch arrives as one call. */
function recordingSink() {
  const writes: string[][] = [];
  const sink = new Writable({
    writev(chunks, callback) {
      writes.push(chunks.map((c) => String(c.chunk)));
      callback();
    },
    write(chunk, _encoding, callback) {
      writes.push([String(chunk)]);
      callback();
    },
  });
  return {
    sink,
    writes,
    texts: () =>
      writes.map((batch) =>
        batch.map(
          (frame) => (JSON.parse(frame.slice(6)) as { text?: string; type: string }).text ?? frame.slice(6, 30),
        ),
      ),
  };
}

const delta = (text: string) => ({ type: 'delta' as const, text });
const tick = () => new Promise<void>((resolve) => process.nextTick(resolve));

describe('SseWriter', () => {
  afterEach(() => vi.useRealTimers());

  it('sends the first token at once and holds later ones for the window, then sends them in one write', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { sink, writes, texts } = recordingSink();
    const frames = new SseWriter(sink, sink, 40);
    await frames.send(delta('a'), true);
    await tick();
    expect(texts()).toEqual([['a']]);
    await frames.send(delta('b'), false);
    await frames.send(delta('c'), false);
    await tick();
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(40);
    expect(texts()).toEqual([['a'], ['b', 'c']]);
  });

  it('lets an urgent frame (done, error) take everything held with it at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { sink, writes } = recordingSink();
    const frames = new SseWriter(sink, sink, 40);
    await frames.send(delta('a'), false);
    await frames.send({ type: 'error', message: 'x' }, true);
    await tick();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends every frame as it comes when the window is 0, and close() flushes what is held', async () => {
    const { sink, writes } = recordingSink();
    const frames = new SseWriter(sink, sink, 0);
    await frames.send(delta('a'), false);
    await tick();
    await frames.send(delta('b'), false);
    await tick();
    expect(writes.map((w) => w.length)).toEqual([1, 1]);
    const held = new SseWriter(sink, sink, 1_000);
    await held.send(delta('c'), false);
    held.close();
    expect(writes).toHaveLength(3);
  });
});

describe('SseWriter on a real HTTP response', () => {
  it('hands the socket a held batch of chunked frames as one write, not one per chunk piece', async () => {
    const socketWrites: number[] = [];
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      const socket = res.socket!;
      // Each _write/_writev call of a net.Socket is one system call.
      const writev = socket._writev!.bind(socket);
      const write = socket._write.bind(socket);
      socket._writev = (chunks, cb) => (socketWrites.push(chunks.length), writev(chunks, cb));
      socket._write = (chunk, encoding, cb) => (socketWrites.push(1), write(chunk, encoding, cb));
      const frames = new SseWriter(res, socket, 20);
      void (async () => {
        await frames.send(delta('a'), true);
        await frames.send(delta('b'), false);
        await frames.send(delta('c'), false);
        await new Promise((resolve) => setTimeout(resolve, 50));
        frames.close();
        res.end();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(body).toBe(['a', 'b', 'c'].map((t) => `data: ${JSON.stringify(delta(t))}\n\n`).join(''));
      // The first frame alone, then b and c together: two writes for three frames, whatever the chunk pieces.
      expect(socketWrites.slice(0, 2)).toHaveLength(2);
      expect(socketWrites[1]).toBeGreaterThanOrEqual(6);
    } finally {
      server.close();
    }
  });
});

describe('the head of a streamed reply', () => {
  it('leaves with the first frame in one write when it is not flushed on its own', async () => {
    const socketWrites: string[] = [];
    const server = createServer((req, res) => {
      const socket = res.socket!;
      const writev = socket._writev!.bind(socket);
      const write = socket._write.bind(socket);
      const text = (chunk: unknown) => (Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk));
      socket._writev = (chunks, cb) => (
        socketWrites.push(chunks.map((c) => text(c.chunk)).join('')),
        writev(chunks, cb)
      );
      socket._write = (chunk, encoding, cb) => (socketWrites.push(text(chunk)), write(chunk, encoding, cb));
      // streamReply's order: the head is written, not flushed, and the first token is urgent.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frames = new SseWriter(res, socket, 1_000);
      void (async () => {
        await frames.send(delta('a'), true);
        await new Promise((resolve) => setTimeout(resolve, 20));
        res.end();
        frames.close();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe(`data: ${JSON.stringify(delta('a'))}\n\n`);
      expect(socketWrites[0]).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*data: \{"type":"delta","text":"a"\}/);
    } finally {
      server.close();
    }
  });
});

describe('StreamsEnd', () => {
  it('tells each listening stream once when the drain time is up, and no stream that stopped listening', () => {
    const drain = new AbortController();
    const streamsEnd = new StreamsEnd(drain.signal);
    const told: string[] = [];
    streamsEnd.listen(() => told.push('a'));
    const stopB = streamsEnd.listen(() => told.push('b'));
    streamsEnd.listen(() => told.push('c'));
    stopB();
    drain.abort();
    drain.abort();
    expect(told).toEqual(['a', 'c']);
    // A stream that starts after the drain time is up is told at once.
    streamsEnd.listen(() => told.push('late'));
    expect(told).toEqual(['a', 'c', 'late']);
  });
});

describe('the end of a streamed reply', () => {
  it('leaves in one write with the frames still held, when the response ends before the writer lets go', async () => {
    const socketWrites: number[] = [];
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      const socket = res.socket!;
      const writev = socket._writev!.bind(socket);
      const write = socket._write.bind(socket);
      socket._writev = (chunks, cb) => (socketWrites.push(chunks.length), writev(chunks, cb));
      socket._write = (chunk, encoding, cb) => (socketWrites.push(1), write(chunk, encoding, cb));
      const frames = new SseWriter(res, socket, 1_000);
      void (async () => {
        await frames.send(delta('a'), false);
        await frames.send(
          { type: 'done', messageId: 'm', usage: { inputTokens: 1, outputTokens: 1, estimated: false } },
          true,
        );
        // streamReply's order: end the response, then close the writer.
        res.end();
        frames.close();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(body).toContain('"type":"done"');
      expect(socketWrites).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});
