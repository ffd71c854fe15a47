import { afterEach, describe, expect, it } from 'vitest';
import type { LlmClient, StreamChunk } from '../adapters/providers/types.ts';
import { buildTestApp, startAttempt, type TestApp } from '../testing/app.ts';
import { makeExam } from '../testing/exams.ts';

function activeStreams(text: string): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith('llm_gateway_active_streams{') && l.includes('/api/llm/chat"'));
  return Number(line?.slice(line.lastIndexOf(' ') + 1));
}

describe('llm-gateway metrics', () => {
  let app: TestApp;
  afterEach(() => app.close());

  it('counts a chat reply as an active stream while it streams, and not after it ended', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    const llm: LlmClient = {
      async *stream(): AsyncIterable<StreamChunk> {
        yield { type: 'delta', text: 'Thinking' };
        streaming();
        await held;
        yield { type: 'delta', text: ' done.' };
      },
    };
    app = await buildTestApp({ deps: { llm } });
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(activeStreams(await scrape())).toBe(0);

    const { headers } = startAttempt(app, makeExam());
    const reply = app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { questionIndex: null, message: 'hi' },
    });
    await started;
    expect(activeStreams(await scrape())).toBe(1);
    release();
    const response = await reply;
    expect(response.headers['content-type']).toContain('text/event-stream');
    expect(activeStreams(await scrape())).toBe(0);
    expect(await scrape()).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/llm\/chat"[^}]*status_class="2xx"[^}]*\} 1/,
    );
  });
});
