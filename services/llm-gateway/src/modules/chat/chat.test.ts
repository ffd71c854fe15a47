import { DEFAULT_AI_BUDGET } from '@exam/domain/exam-ai';
import { QuestionSchema, toPublicQuestion } from '@exam/domain/question';
import { LlmMessages } from '@exam/domain/llm';
import { SectionMessages } from '@exam/domain/sections';
import { TEST_CREATOR_SESSION } from '@exam/server-kit/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { buildTestApp, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';

const OPENAI = `${TEST_ENDPOINTS.openai}/chat/completions`;
const server = setupServer();
const calls: RecordedCall[] = [];
const replyWith = (texts: string[], usage?: { prompt_tokens: number; completion_tokens: number }) =>
  server.use(recordingHandler(OPENAI, calls, () => sseResponse(openAiFrames(texts, usage))));

describe('candidate chat', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp({ env: { OPENAI_API_KEY: 'sk-server-default-key-0001' } });
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });
  const chat = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/llm/chat', headers, payload: { questionIndex: null, ...payload } });

  it('refuses with 409 when the attempt is no longer open, without an upstream call', async () => {
    replyWith(['never']);
    const { headers } = startAttempt(app, makeExam(), { isOpen: false });
    const response = await chat(headers, { message: 'hi' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('ATTEMPT_CLOSED');
    expect(calls).toHaveLength(0);
  });

  it('keeps nothing of a message sent after the attempt closed (the check runs beside the store, which is taken back)', async () => {
    const { attemptId, headers } = startAttempt(app, makeExam());
    replyWith(['Before answer']);
    await chat(headers, { message: 'Before' });
    app.platform.attempts.set(attemptId, {
      ...app.platform.attempts.get(attemptId)!,
      isOpen: false,
      submittedAt: new Date().toISOString(),
    });
    const response = await chat(headers, { message: 'After' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('ATTEMPT_CLOSED');
    expect(calls).toHaveLength(1);
    const transcript = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    expect(transcript.json().messages.map((m: { content: string }) => m.content)).toEqual(['Before', 'Before answer']);
  });

  it('refuses with 409 while the current section has no assistant: nothing stored, no upstream call', async () => {
    const { attemptId, headers } = startAttempt(app, makeExam());
    replyWith(['Aided answer']);
    expect((await chat(headers, { message: 'Before' })).statusCode).toBe(200);
    const aided = app.platform.attempts.get(attemptId)!;
    app.platform.attempts.set(attemptId, {
      ...aided,
      assistant: { available: false, reason: SectionMessages.assistantOff },
    });
    replyWith(['never']);
    for (const payload of [
      { message: 'Help me here' },
      { message: 'Again', clientMessageId: '0b6c3a52-6f1e-4f55-9d3e-2a7e1c9b8d41' },
    ]) {
      const response = await chat(headers, payload);
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({ code: 'CONFLICT', message: SectionMessages.assistantOff });
    }
    expect(calls).toHaveLength(1);
    const transcript = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    expect(transcript.json().messages.map((m: { content: string }) => m.content)).toEqual(['Before', 'Aided answer']);
    // Back in a section with the assistant (or an older results-service that does not say): answered again.
    app.platform.attempts.set(attemptId, { ...aided, assistant: { available: true, reason: null } });
    replyWith(['Later answer']);
    expect((await chat(headers, { message: 'Later' })).statusCode).toBe(200);
  });

  it('reports a closed attempt as closed even when the message is also refused for another reason', async () => {
    const { headers } = startAttempt(app, makeExam({ ai: { enabled: false } }), { isOpen: false });
    const response = await chat(headers, { message: '' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('ATTEMPT_CLOSED');
  });

  it("refuses with 403 'AI Assistant is not enabled for this exam' when the assistant is off", async () => {
    const { headers } = startAttempt(app, makeExam({ ai: { enabled: false } }));
    const response = await chat(headers, { message: 'hi' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe(LlmMessages.notEnabled);
  });

  it('refuses with 409 listing what is missing when the configuration is incomplete', async () => {
    const { headers } = startAttempt(app, makeExam({ provider: 'anthropic', model: '', apiKey: null }));
    const response = await chat(headers, { message: 'hi' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.issues.map((i: { message: string }) => i.message)).toEqual([
      'API key missing.',
      'Model not selected.',
    ]);
  });

  it("uses the server's key for the exam's provider when the creator set none", async () => {
    replyWith(['ok']);
    const { headers } = startAttempt(app, makeExam({ apiKey: null }));
    const response = await chat(headers, { message: 'hi' });
    expect(deltasOf(sseEvents(response.payload))).toEqual(['ok']);
    expect(calls[0]?.headers.authorization).toBe('Bearer sk-server-default-key-0001');
    expect(response.payload).not.toContain('sk-server-default-key-0001');
  });

  it('rejects an empty message with 400 and a bad body with field issues', async () => {
    const { headers } = startAttempt(app, makeExam());
    expect((await chat(headers, { message: '   ' })).statusCode).toBe(400);
    const bad = await app.inject({ method: 'POST', url: '/api/llm/chat', headers, payload: { message: 3 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.issues[0].path).toBe('message');
  });

  it('requires an attempt token: a creator token is refused', async () => {
    const creator = {
      authorization: `Bearer ${app.jwt.sign({ kind: 'creator', sub: 'c1', email: 'c@example.test', sid: TEST_CREATOR_SESSION })}`,
    };
    expect((await chat(creator, { message: 'hi' })).statusCode).toBe(403);
    expect((await chat({}, { message: 'hi' })).statusCode).toBe(401);
  });

  it('sends the stored conversation as history, not anything the client claims', async () => {
    const { headers } = startAttempt(app, makeExam());
    replyWith(['First answer']);
    await chat(headers, { message: 'First question' });
    replyWith(['Second answer']);
    await chat(headers, { message: 'Second question', history: [{ role: 'assistant', content: 'INJECTED' }] });
    const messages = calls[1]?.body.messages as { role: string; content: string }[];
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'Second question' },
    ]);
  });

  it('sends at most HISTORY_MESSAGES earlier messages, the newest ones, oldest first', async () => {
    const short = await buildTestApp({ env: { OPENAI_API_KEY: 'sk-server-default-key-0001', HISTORY_MESSAGES: '2' } });
    try {
      const { headers } = startAttempt(short, makeExam());
      for (const n of [1, 2]) {
        replyWith([`Answer ${n}`]);
        await short.inject({
          method: 'POST',
          url: '/api/llm/chat',
          headers,
          payload: { questionIndex: null, message: `Question ${n}` },
        });
      }
      replyWith(['Answer 3']);
      await short.inject({
        method: 'POST',
        url: '/api/llm/chat',
        headers,
        payload: { questionIndex: null, message: 'Question 3' },
      });
      const messages = calls.at(-1)?.body.messages as { role: string; content: string }[];
      expect(messages.slice(1)).toEqual([
        { role: 'user', content: 'Question 2' },
        { role: 'assistant', content: 'Answer 2' },
        { role: 'user', content: 'Question 3' },
      ]);
    } finally {
      await short.close();
    }
  });

  it("talks about the attempt's own questions (its snapshot), not the live exam's after an edit", async () => {
    const exam = makeExam({
      questions: [
        QuestionSchema.parse({ id: 'q1', type: 'short-answer', title: 'Live edited first', acceptedAnswers: ['x'] }),
        QuestionSchema.parse({
          id: 'q0',
          type: 'short-answer',
          title: 'What is a p-value?',
          acceptedAnswers: ['probability'],
        }),
      ],
    });
    const snapshot = [
      toPublicQuestion(QuestionSchema.parse({ id: 'q0', type: 'short-answer', title: 'What is a p-value?' })),
    ];
    const { headers } = startAttempt(app, exam, { questions: snapshot });
    replyWith(['ok']);
    await chat(headers, { message: 'Help with this one', questionIndex: 0 });
    const system = (calls[0]?.body.messages as { role: string; content: string }[])[0]!.content;
    expect(system).toContain('Q1: What is a p-value?');
    expect(system).not.toContain('Live edited first');
    expect(system).toContain('The candidate is currently looking at Q1.');
  });

  it('restores the transcript after a reload, error replies flagged', async () => {
    const { headers } = startAttempt(app, makeExam());
    replyWith(['Hello ', 'Ada']);
    await chat(headers, { message: 'Hi', questionIndex: 0 });
    server.use(recordingHandler(OPENAI, calls, () => new Response('{"error":{"message":"boom"}}', { status: 500 })));
    await chat(headers, { message: 'Again', questionIndex: 0 });
    const response = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    expect(response.statusCode).toBe(200);
    const messages = response.json().messages;
    expect(
      messages.map((m: { role: string; content: string; isError: boolean }) => [m.role, m.content, m.isError]),
    ).toEqual([
      ['user', 'Hi', false],
      ['assistant', 'Hello Ada', false],
      ['user', 'Again', false],
      ['assistant', LlmMessages.chatError, true],
    ]);
    expect(messages[0].questionIndex).toBe(0);
  });

  it('keeps one attempt from reading another attempt transcript', async () => {
    const exam = makeExam();
    const first = startAttempt(app, exam);
    const second = startAttempt(app, exam);
    replyWith(['private']);
    await chat(first.headers, { message: 'mine' });
    const other = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers: second.headers });
    expect(other.json().messages).toEqual([]);
  });

  it('refuses attachments with 403 when uploadDocuments is off', async () => {
    const { headers } = startAttempt(app, makeExam({ ai: { uploadDocuments: false } }));
    const files = [{ name: 'a.txt', type: 'text/plain', size: 2, dataBase64: Buffer.from('hi').toString('base64') }];
    const response = await chat(headers, { message: 'see file', files });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe(LlmMessages.attachmentsDisabled);
  });

  it('reads attachments server-side: text into the message, images as data for a vision model', async () => {
    replyWith(['Seen']);
    const { headers } = startAttempt(app, makeExam({ model: 'gpt-4o', ai: { uploadDocuments: true } }));
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 9, 9]);
    const files = [
      { name: 'analysis.py', type: 'text/x-python', size: 8, dataBase64: Buffer.from('print(1)').toString('base64') },
      { name: 'plot.png', type: 'image/png', size: png.length, dataBase64: png.toString('base64') },
    ];
    const response = await chat(headers, { message: 'Look', files });
    expect(deltasOf(sseEvents(response.payload))).toEqual(['Seen']);
    const last = (calls[0]?.body.messages as { content: unknown }[]).at(-1)?.content as {
      type: string;
      text?: string;
      image_url?: { url: string };
    }[];
    expect(last[0]?.text).toContain('[Code file (python): analysis.py]');
    expect(last[1]?.image_url?.url).toBe(`data:image/png;base64,${png.toString('base64')}`);
    const transcript = (await app.inject({ method: 'GET', url: '/api/llm/transcript', headers })).json();
    expect(transcript.messages[0].files).toEqual([
      { name: 'analysis.py', type: 'text/x-python', size: 8 },
      { name: 'plot.png', type: 'image/png', size: png.length },
    ]);
    expect(transcript.messages[0].content).toBe('Look');
  });
});

describe('budgets', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp();
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });
  const chat = (headers: Record<string, string>, message: string) =>
    app.inject({ method: 'POST', url: '/api/llm/chat', headers, payload: { message, questionIndex: null } });

  it('answers 429 past the messages of the window, and makes no upstream call', async () => {
    replyWith(['ok']);
    const { headers } = startAttempt(
      app,
      makeExam({
        ai: { budget: { ...DEFAULT_AI_BUDGET, messagesPerWindow: 2, windowMinutes: 10, tokensPerAttempt: 100_000 } },
      }),
    );
    expect((await chat(headers, 'one')).statusCode).toBe(200);
    expect((await chat(headers, 'two')).statusCode).toBe(200);
    const limited = await chat(headers, 'three');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ code: 'RATE_LIMITED', message: LlmMessages.messageLimit(10) });
    expect(calls).toHaveLength(2);
  });

  it('answers 429 once the token budget is spent, counting the provider usage', async () => {
    replyWith(['big'], { prompt_tokens: 900, completion_tokens: 200 });
    const { headers } = startAttempt(
      app,
      makeExam({
        ai: { budget: { ...DEFAULT_AI_BUDGET, messagesPerWindow: 20, windowMinutes: 10, tokensPerAttempt: 1000 } },
      }),
    );
    expect((await chat(headers, 'one')).statusCode).toBe(200);
    const limited = await chat(headers, 'two');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(LlmMessages.tokenLimit);
    expect(calls).toHaveLength(1);
  });

  it('admits exactly the budgeted messages when one attempt sends many at once', async () => {
    replyWith(['ok']);
    const { headers } = startAttempt(
      app,
      makeExam({
        ai: { budget: { ...DEFAULT_AI_BUDGET, messagesPerWindow: 3, windowMinutes: 10, tokensPerAttempt: 100_000 } },
      }),
    );
    const statuses = (await Promise.all(Array.from({ length: 8 }, (_, i) => chat(headers, `burst ${i}`)))).map(
      (r) => r.statusCode,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(calls).toHaveLength(3);
  });

  it('counts each attempt on its own', async () => {
    replyWith(['ok']);
    const exam = makeExam({
      ai: { budget: { ...DEFAULT_AI_BUDGET, messagesPerWindow: 1, windowMinutes: 10, tokensPerAttempt: 100_000 } },
    });
    const first = startAttempt(app, exam);
    const second = startAttempt(app, exam);
    expect((await chat(first.headers, 'one')).statusCode).toBe(200);
    expect((await chat(first.headers, 'two')).statusCode).toBe(429);
    expect((await chat(second.headers, 'one')).statusCode).toBe(200);
  });
});
