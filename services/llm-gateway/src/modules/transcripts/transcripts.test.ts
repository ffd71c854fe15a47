import { randomUUID } from 'node:crypto';
import { InternalAttemptTranscriptSchema, InternalTranscriptsSchema } from '@exam/domain/internal';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';

const server = setupServer();
const calls: RecordedCall[] = [];

describe('transcripts and the test chat', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    server.use(
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () =>
        sseResponse(openAiFrames(['Sure', '.'])),
      ),
    );
    app = await buildTestApp();
  });
  afterEach(() => {
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });

  async function attemptWithConversation() {
    const exam = makeExam();
    const attempt = startAttempt(app, exam);
    await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers: attempt.headers,
      payload: { message: 'Help me', questionIndex: 0 },
    });
    return { exam, ...attempt };
  }

  it("gives the exam's owner the candidate's conversation", async () => {
    const { exam, attemptId } = await attemptWithConversation();
    const response = await app.inject({
      method: 'GET',
      url: `/api/llm/attempts/${attemptId}/transcript`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().messages.map((m: { content: string }) => m.content)).toEqual(['Help me', 'Sure.']);
  });

  it('returns 404 when another creator asks for the conversation', async () => {
    const { attemptId } = await attemptWithConversation();
    const response = await app.inject({
      method: 'GET',
      url: `/api/llm/attempts/${attemptId}/transcript`,
      headers: creatorHeaders(app, randomUUID()),
    });
    expect(response.statusCode).toBe(404);
  });

  it('returns an empty conversation to the owner when the candidate never used the assistant, and 404 to others', async () => {
    const exam = makeExam();
    const { attemptId } = startAttempt(app, exam);
    const owner = await app.inject({
      method: 'GET',
      url: `/api/llm/attempts/${attemptId}/transcript`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(owner.json()).toEqual({ messages: [], agentCalls: [] });
    const stranger = await app.inject({
      method: 'GET',
      url: `/api/llm/attempts/${attemptId}/transcript`,
      headers: creatorHeaders(app, randomUUID()),
    });
    expect(stranger.statusCode).toBe(404);
    const unknown = await app.inject({
      method: 'GET',
      url: `/api/llm/attempts/${randomUUID()}/transcript`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a candidate token on the creator transcript route', async () => {
    const { attemptId, headers } = await attemptWithConversation();
    const response = await app.inject({ method: 'GET', url: `/api/llm/attempts/${attemptId}/transcript`, headers });
    expect(response.statusCode).toBe(403);
  });

  it("lists every attempt's conversation of an exam to other services only", async () => {
    const { exam, attemptId } = await attemptWithConversation();
    const url = `/internal/exams/${exam.id}/transcripts`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const response = await app.inject({
      method: 'GET',
      url,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    const body = InternalTranscriptsSchema.parse(response.json());
    expect(body.transcripts).toHaveLength(1);
    expect(body.transcripts[0]?.attemptId).toBe(attemptId);
    expect(body.transcripts[0]?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it("gives other services one attempt's conversation in order, with ids, questions and flags", async () => {
    const { attemptId, headers } = await attemptWithConversation();
    await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { message: 'And question two?', questionIndex: 1 },
    });
    const url = `/internal/attempts/${attemptId}/transcript`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const response = await app.inject({
      method: 'GET',
      url,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    expect(response.statusCode).toBe(200);
    const body = InternalAttemptTranscriptSchema.parse(response.json());
    expect(body.attemptId).toBe(attemptId);
    expect(body.messages.map((m) => [m.role, m.content, m.questionIndex])).toEqual([
      ['user', 'Help me', 0],
      ['assistant', 'Sure.', 0],
      ['user', 'And question two?', 1],
      ['assistant', 'Sure.', 1],
    ]);
    expect(new Set(body.messages.map((m) => m.id)).size).toBe(4);
    expect(body.messages.every((m) => !m.isError && !m.isWithheld)).toBe(true);
    const times = body.messages.map((m) => Date.parse(m.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("answers an empty conversation for an attempt that never used the assistant, and never another attempt's", async () => {
    await attemptWithConversation();
    const response = await app.inject({
      method: 'GET',
      url: `/internal/attempts/${randomUUID()}/transcript`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().messages).toEqual([]);
  });

  it('refuses an attempt token on the internal attempt transcript', async () => {
    const { attemptId, headers } = await attemptWithConversation();
    const response = await app.inject({ method: 'GET', url: `/internal/attempts/${attemptId}/transcript`, headers });
    expect(response.statusCode).toBe(401);
  });

  it('lets the owner try the assistant as configured and stores nothing', async () => {
    const exam = makeExam({ ai: { stopSolutions: true } });
    app.platform.exams.set(exam.id, exam);
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/test-chat',
      headers: creatorHeaders(app, exam.ownerId),
      payload: {
        examId: exam.id,
        messages: [{ role: 'user', content: 'Is this a good assistant?' }],
        questionIndex: 0,
      },
    });
    expect(response.statusCode).toBe(200);
    const events = sseEvents(response.payload);
    expect(deltasOf(events).join('')).toBe('Sure.');
    expect(events.at(-1)).toMatchObject({ type: 'done', messageId: null });
    expect(calls[0]?.body.temperature).toBe(0.7);
    expect((calls[0]?.body.messages as { content: string }[])[0]?.content).toContain(
      'Do not provide complete solutions',
    );
    const stored = await app.inject({
      method: 'GET',
      url: `/internal/exams/${exam.id}/transcripts`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    expect(stored.json()).toEqual({ transcripts: [] });
  });

  it('returns 404 to a creator who tries the assistant of an exam they do not own', async () => {
    const exam = makeExam();
    app.platform.exams.set(exam.id, exam);
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/test-chat',
      headers: creatorHeaders(app, randomUUID()),
      payload: { examId: exam.id, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(response.statusCode).toBe(404);
    expect(calls).toHaveLength(0);
  });
});
