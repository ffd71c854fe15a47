import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames } from '../../testing/provider-mocks.ts';
import { openAiAdapter } from './openai.ts';
import type { ProviderRequest, StreamChunk } from './types.ts';

/** The OpenAI adapter against a real local server: how it reads a streamed body and treats the connection. */
let answer: (res: ServerResponse) => void = (res) => res.end();
let connections = 0;
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  answer(res);
});
server.on('connection', () => (connections += 1));
let baseUrl = '';

const request: ProviderRequest = {
  provider: 'openai',
  model: 'gpt-4o-mini',
  apiKey: 'sk-test',
  system: 'Be brief.',
  messages: [{ role: 'user', content: 'hello' }],
  temperature: 0.7,
  maxTokens: 100,
};

async function collect(stream: AsyncIterable<StreamChunk>) {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('the OpenAI adapter on a real connection', () => {
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads each reply to its end and sends the next call on the same kept-alive connection', async () => {
    const adapter = openAiAdapter(baseUrl);
    answer = (res) => {
      const frames = openAiFrames(['Hello ', 'there']);
      res.write(frames.slice(0, 2).join(''));
      setTimeout(() => res.end(frames.slice(2).join('')), 5);
    };
    connections = 0;
    const first = await collect(adapter(request, new AbortController().signal));
    expect(first.filter((c) => c.type === 'delta').map((c) => (c as { text: string }).text)).toEqual([
      'Hello ',
      'there',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await collect(adapter(request, new AbortController().signal));
    expect(connections).toBe(1);
  });

  it('ends the stream at [DONE] without waiting for the body to end', async () => {
    const adapter = openAiAdapter(baseUrl);
    answer = (res) => {
      res.write(openAiFrames(['Done ', 'soon']).join(''));
      setTimeout(() => res.end(), 500);
    };
    const started = performance.now();
    const chunks = await collect(adapter(request, new AbortController().signal));
    expect(chunks.some((c) => c.type === 'delta')).toBe(true);
    expect(performance.now() - started).toBeLessThan(400);
  });

  it('fails a stream whose body is cut before [DONE]', async () => {
    const adapter = openAiAdapter(baseUrl);
    answer = (res) => {
      res.write(openAiFrames(['Half ']).slice(0, 1).join(''));
      setTimeout(() => res.socket?.destroy(), 5);
    };
    await expect(collect(adapter(request, new AbortController().signal))).rejects.toThrow();
  });
});
