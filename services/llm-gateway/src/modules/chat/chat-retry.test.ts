import { randomUUID } from 'node:crypto';
import { DEFAULT_AI_BUDGET } from '@exam/domain/exam-ai';
import { lifecycleOf } from '@exam/server-kit/lifecycle';
import { openTestDatabase } from '@exam/server-kit/testing';
import { setupServer } from 'msw/node';
import { HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';
import { createChatRepository } from './chat.repository.ts';

const OPENAI = `${TEST_ENDPOINTS.openai}/chat/completions`;
const server = setupServer();
const calls: RecordedCall[] = [];
const replyWith = (texts: string[], usage = { prompt_tokens: 100, completion_tokens: 20 }) =>
  server.use(recordingHandler(OPENAI, calls, () => sseResponse(openAiFrames(texts, usage))));

/** A provider reply whose first frames arrive and whose end never does (until the call is aborted). */
function replyThatHangs(texts: string[]) {
  const frames = openAiFrames(texts).slice(0, texts.length + 1);
  const encoder = new TextEncoder();
  server.use(
    recordingHandler(OPENAI, calls, () => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const frame of frames) controller.enqueue(encoder.encode(frame));
        },
      });
      return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
}

const exam = (budget: Partial<typeof DEFAULT_AI_BUDGET> = {}) =>
  makeExam({ ai: { stopSolutions: false, budget: { ...DEFAULT_AI_BUDGET, ...budget } } });

type Message = { role: string; content: string; isPartial: boolean };

describe('a chat message sent again with its clientMessageId', () => {
  let app: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp({ env: { OPENAI_API_KEY: 'sk-server-default-key-0001' } });
    // A second replica on the same database (and the same exam-service and results-service).
    other = await buildTestApp({ env: { OPENAI_API_KEY: 'sk-server-default-key-0001' }, platform: app.platform });
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await Promise.all([app.close(), other.close()]);
    server.close();
  });

  const chat = (on: TestApp, headers: Record<string, string>, payload: Record<string, unknown>) =>
    on.inject({ method: 'POST', url: '/api/llm/chat', headers, payload: { questionIndex: null, ...payload } });
  const transcript = async (headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: '/api/llm/transcript', headers })).json().messages as Message[];
  const spend = async (examId: string, ownerId: string) =>
    (
      await app.inject({ method: 'GET', url: `/api/llm/exams/${examId}/usage`, headers: creatorHeaders(app, ownerId) })
    ).json().total as { requests: number; tokens: number };

  it('replays a completed reply as stored, without an upstream call or counting anything again', async () => {
    const theExam = exam();
    const { headers } = startAttempt(app, theExam);
    const clientMessageId = randomUUID();
    replyWith(['The answer ', 'is 42.']);
    const first = sseEvents((await chat(app, headers, { message: 'What is it?', clientMessageId })).payload);
    const before = await spend(theExam.id, theExam.ownerId);

    const again = await chat(other, headers, { message: 'What is it?', clientMessageId });
    expect(again.statusCode).toBe(200);
    const events = sseEvents(again.payload);
    expect(deltasOf(events).join('')).toBe('The answer is 42.');
    expect(events.at(-1)).toEqual(first.at(-1));
    expect(events.at(-1)).toMatchObject({ type: 'done', usage: { inputTokens: 100, outputTokens: 20 } });
    expect(calls).toHaveLength(1);
    expect(await spend(theExam.id, theExam.ownerId)).toEqual(before);
    expect((await transcript(headers)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'What is it?'],
      ['assistant', 'The answer is 42.'],
    ]);
  });

  it('generates again a reply that never completed (its replica died), leaving one message and one reply', async () => {
    // One message per window: a retry counted again would be refused.
    const theExam = exam({ messagesPerWindow: 1 });
    const { attemptId, headers } = startAttempt(app, theExam);
    replyWith(['Earlier answer']);
    expect((await chat(app, headers, { message: 'Earlier' })).statusCode).toBe(200);
    const clientMessageId = randomUUID();
    // What a replica killed mid-stream leaves: the admitted message and the partial reply a cut client stored.
    const repo = createChatRepository(
      await openTestDatabase({ schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA }),
    );
    const userMessage = {
      id: randomUUID(),
      content: 'Explain recursion',
      attachmentText: '',
      files: [],
      questionIndex: null,
      clientMessageId,
      tryId: 'killed-try',
    };
    const key = { attemptId, examId: theExam.id, ownerId: theExam.ownerId };
    const budget = { ...theExam.aiSettings.budget, messagesPerWindow: 2 };
    expect((await repo.admitUserMessage(key, userMessage, budget, 20, new Date())).kind).toBe('ok');
    await repo.insertAssistantMessage(
      {
        id: randomUUID(),
        attemptId,
        content: 'Recursion is',
        questionIndex: null,
        isError: false,
        isPartial: true,
        withheldQuestionIndex: null,
        inputTokens: 50,
        outputTokens: 3,
        clientMessageId,
        tryId: 'killed-try',
      },
      new Date(),
    );
    const before = await spend(theExam.id, theExam.ownerId);

    replyWith(['Recursion is a function calling itself.'], { prompt_tokens: 60, completion_tokens: 9 });
    const retried = await chat(other, headers, { message: 'Explain recursion', clientMessageId });
    expect(retried.statusCode).toBe(200);
    expect(deltasOf(sseEvents(retried.payload)).join('')).toBe('Recursion is a function calling itself.');
    // The provider sees the conversation before the message and the message once, not the partial reply.
    const sent = calls[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(sent.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
      'Earlier',
      'Earlier answer',
      'Explain recursion',
    ]);
    expect((await transcript(headers)).map((m) => [m.role, m.content, m.isPartial])).toEqual([
      ['user', 'Earlier', false],
      ['assistant', 'Earlier answer', false],
      ['user', 'Explain recursion', false],
      ['assistant', 'Recursion is a function calling itself.', false],
    ]);
    // Not a second request; the tokens the new try used are counted.
    const after = await spend(theExam.id, theExam.ownerId);
    expect(after.requests).toBe(before.requests);
    expect(after.tokens).toBe(before.tokens + 69);
  });

  it('ends a reply still streaming with interrupted when the drain time is up; another replica generates it again', async () => {
    const theExam = exam();
    const { headers } = startAttempt(app, theExam);
    const clientMessageId = randomUUID();
    replyThatHangs(['Half of ']);
    const draining = await buildTestApp({
      env: { OPENAI_API_KEY: 'sk-server-default-key-0001' },
      platform: app.platform,
    });
    const streaming = chat(draining, headers, { message: 'Tell me', clientMessageId });
    await expect.poll(() => calls.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    lifecycleOf(draining).endStreams();
    const cut = await streaming;
    await draining.close();
    expect(sseEvents(cut.payload)).toEqual([{ type: 'delta', text: 'Half of ' }, { type: 'interrupted' }]);
    expect((await transcript(headers)).map((m) => [m.role, m.content, m.isPartial])).toEqual([
      ['user', 'Tell me', false],
      ['assistant', 'Half of ', true],
    ]);

    replyWith(['Half of it, and the rest.']);
    const retried = sseEvents((await chat(other, headers, { message: 'Tell me', clientMessageId })).payload);
    expect(retried.at(-1)).toMatchObject({ type: 'done' });
    expect((await transcript(headers)).map((m) => [m.role, m.content, m.isPartial])).toEqual([
      ['user', 'Tell me', false],
      ['assistant', 'Half of it, and the rest.', false],
    ]);
  });

  it('stores only the reply of the latest try when an older try finishes after it (its tokens still count)', async () => {
    const theExam = exam();
    const { attemptId } = startAttempt(app, theExam);
    const repo = createChatRepository(
      await openTestDatabase({ schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA }),
    );
    const clientMessageId = randomUUID();
    const messageId = randomUUID();
    const key = { attemptId, examId: theExam.id, ownerId: theExam.ownerId };
    const message = { content: 'Hi', attachmentText: '', files: [], questionIndex: null, clientMessageId };
    const budget = theExam.aiSettings.budget;
    expect(
      await repo.admitUserMessage(key, { ...message, id: messageId, tryId: 'old' }, budget, 20, new Date()),
    ).toEqual({ kind: 'ok', history: [], turn: null });
    // The same message again is recognised, whatever id the new try would have given it.
    expect(
      await repo.admitUserMessage(key, { ...message, id: randomUUID(), tryId: 'new' }, budget, 20, new Date()),
    ).toEqual({ kind: 'seen', messageId, turn: null });
    await repo.takeOverMessage(messageId, 'new', 20);
    const reply = (tryId: string, content: string) => ({
      id: randomUUID(),
      attemptId,
      content,
      questionIndex: null,
      isError: false,
      isPartial: false,
      withheldQuestionIndex: null,
      inputTokens: 10,
      outputTokens: 5,
      clientMessageId,
      tryId,
    });
    expect(await repo.insertAssistantMessage(reply('new', 'From the new try'), new Date())).toBe(true);
    expect(await repo.insertAssistantMessage(reply('old', 'From the old try'), new Date())).toBe(false);
    const stored = await repo.listMessages(attemptId);
    expect(stored.map((m) => m.content)).toEqual(['Hi', 'From the new try']);
    expect((await repo.findConversation(attemptId))?.tokensUsed).toBe(30);
  });
});
