import { randomUUID } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GuardMessages } from '../../adapters/providers/base-url-guard.ts';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';
import { testChatLimitMessage } from './chat.service.ts';

const server = setupServer();
const calls: RecordedCall[] = [];
const compatible = (baseUrl: string) =>
  makeExam({ provider: 'openai-compatible', model: 'qwen2.5:7b-instruct', apiKey: null, ai: { baseUrl } });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

describe('SSRF guard on the creator base URL, no allow-list configured', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { OPENAI_COMPATIBLE_ALLOWED_HOSTS: '' } });
  });
  afterAll(() => app.close());

  it.each([
    'http://127.0.0.1:11434/v1',
    'http://10.0.0.5:8000/v1',
    'http://169.254.169.254/v1',
    'http://[::1]:8000/v1',
  ])('refuses %s with 409, stores nothing and makes no upstream call', async (baseUrl) => {
    const { headers } = startAttempt(app, compatible(baseUrl));
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { message: 'hi', questionIndex: null },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(
      GuardMessages.internal(new URL(baseUrl).hostname.replace(/^\[|\]$/g, '')),
    );
    const transcript = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    expect(transcript.json().messages).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it("refuses the creator's Test Assistant on a private base URL too", async () => {
    const exam = compatible('http://192.168.1.20:8000/v1');
    app.platform.exams.set(exam.id, exam);
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/test-chat',
      headers: creatorHeaders(app, exam.ownerId),
      payload: { examId: exam.id, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(response.statusCode).toBe(409);
  });

  it("never applies to the server's own OPENAI_BASE_URL", async () => {
    server.use(
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () => sseResponse(openAiFrames(['ok']))),
    );
    const { headers } = startAttempt(app, makeExam({ provider: 'openai' }));
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { message: 'hi', questionIndex: null },
    });
    expect(deltasOf(sseEvents(response.payload))).toEqual(['ok']);
  });
});

describe('SSRF guard with OPENAI_COMPATIBLE_ALLOWED_HOSTS', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { OPENAI_COMPATIBLE_ALLOWED_HOSTS: 'self-hosted.test:8000' } });
  });
  afterAll(() => app.close());

  it('calls a listed host', async () => {
    server.use(
      recordingHandler(`${TEST_ENDPOINTS.compatible}/chat/completions`, calls, () =>
        sseResponse(openAiFrames(['listed'])),
      ),
    );
    const { headers } = startAttempt(app, compatible(TEST_ENDPOINTS.compatible));
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { message: 'hi', questionIndex: null },
    });
    expect(deltasOf(sseEvents(response.payload))).toEqual(['listed']);
    expect(calls).toHaveLength(1);
  });

  it('refuses a host that is not listed with 409 naming it, and makes no upstream call', async () => {
    const { headers } = startAttempt(app, compatible('https://llm.example.com/v1'));
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { message: 'hi', questionIndex: null },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(GuardMessages.notListed('llm.example.com'));
    expect(calls).toHaveLength(0);
  });
});

describe('Test Assistant rate limit per creator', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { TEST_CHAT_MESSAGES_PER_WINDOW: '2', TEST_CHAT_WINDOW_MINUTES: '10' } });
  });
  afterAll(() => app.close());
  const testChat = (creatorId: string, examId: string) =>
    app.inject({
      method: 'POST',
      url: '/api/llm/test-chat',
      headers: creatorHeaders(app, creatorId),
      payload: { examId, messages: [{ role: 'user', content: 'hi' }] },
    });

  it('answers 429 with a message past the limit, makes no upstream call, and counts each creator on their own', async () => {
    server.use(
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () => sseResponse(openAiFrames(['fine']))),
    );
    const first = makeExam({ ownerId: randomUUID() });
    const second = makeExam({ ownerId: randomUUID() });
    app.platform.exams.set(first.id, first);
    app.platform.exams.set(second.id, second);
    expect((await testChat(first.ownerId, first.id)).statusCode).toBe(200);
    expect((await testChat(first.ownerId, first.id)).statusCode).toBe(200);
    const limited = await testChat(first.ownerId, first.id);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ code: 'RATE_LIMITED', message: testChatLimitMessage(10) });
    expect(calls).toHaveLength(2);
    expect((await testChat(second.ownerId, second.id)).statusCode).toBe(200);
    expect(calls).toHaveLength(3);
  });

  it('does not count a refused request against the creator', async () => {
    const exam = makeExam({ ownerId: randomUUID() });
    app.platform.exams.set(exam.id, exam);
    const noUserTurn = { examId: exam.id, messages: [{ role: 'assistant', content: 'Hello!' }] };
    for (let i = 0; i < 3; i++) {
      const refused = await app.inject({
        method: 'POST',
        url: '/api/llm/test-chat',
        headers: creatorHeaders(app, exam.ownerId),
        payload: noUserTurn,
      });
      expect(refused.statusCode).toBe(400);
    }
    server.use(
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () => sseResponse(openAiFrames(['fine']))),
    );
    expect((await testChat(exam.ownerId, exam.id)).statusCode).toBe(200);
  });
});
