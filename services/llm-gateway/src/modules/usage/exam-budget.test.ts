import { DEFAULT_AI_BUDGET } from '@exam/domain/exam-ai';
import { LlmMessages } from '@exam/domain/llm';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';

const OPENAI = `${TEST_ENDPOINTS.openai}/chat/completions`;
const server = setupServer();
const calls: RecordedCall[] = [];
const replyWith = (usage = { prompt_tokens: 100, completion_tokens: 20 }) =>
  server.use(recordingHandler(OPENAI, calls, () => sseResponse(openAiFrames(['ok'], usage))));

/** The test's clock: every message happens at `now`, which a test moves forward. */
let now = new Date('2026-11-24T10:00:30Z');
const examWithBudget = (budget: Partial<typeof DEFAULT_AI_BUDGET>) =>
  makeExam({ ai: { stopSolutions: false, budget: { ...DEFAULT_AI_BUDGET, ...budget } } });

describe('the exam-wide AI budget', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp({ deps: { clock: { now: () => now } } });
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });
  const chat = (headers: Record<string, string>, message = 'hello') =>
    app.inject({ method: 'POST', url: '/api/llm/chat', headers, payload: { message, questionIndex: null } });
  const usage = (examId: string, creatorId: string) =>
    app.inject({ method: 'GET', url: `/api/llm/exams/${examId}/usage`, headers: creatorHeaders(app, creatorId) });

  it('refuses the next message of any attempt once the requests per hour are spent, with Retry-After and no upstream call', async () => {
    replyWith();
    now = new Date('2026-11-24T10:00:30Z');
    const exam = examWithBudget({ examRequestsPerHour: 3 });
    for (let i = 0; i < 3; i++) expect((await chat(startAttempt(app, exam).headers)).statusCode).toBe(200);
    const refused = await chat(startAttempt(app, exam).headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', message: LlmMessages.examBudget(60) });
    // The three messages of 10:00 leave the sliding hour at 11:00: 59 min 30 s from now.
    expect(refused.headers['retry-after']).toBe(String(59 * 60 + 30));
    expect(calls).toHaveLength(3);

    now = new Date('2026-11-24T11:00:01Z');
    expect((await chat(startAttempt(app, exam).headers)).statusCode).toBe(200);
  });

  it('refuses once the tokens per hour are spent, counting the provider usage of every attempt', async () => {
    replyWith({ prompt_tokens: 900, completion_tokens: 200 });
    now = new Date('2026-11-24T12:00:00Z');
    const exam = examWithBudget({ examTokensPerHour: 1000 });
    expect((await chat(startAttempt(app, exam).headers)).statusCode).toBe(200);
    const refused = await chat(startAttempt(app, exam).headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(calls).toHaveLength(1);
  });

  it('admits exactly the budgeted messages when many attempts send at once', async () => {
    replyWith();
    now = new Date('2026-11-24T13:00:00Z');
    const exam = examWithBudget({ examRequestsPerHour: 4 });
    const attempts = Array.from({ length: 10 }, () => startAttempt(app, exam));
    const statuses = (await Promise.all(attempts.map((a) => chat(a.headers)))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect(calls).toHaveLength(4);
  });

  it("shows the owner the exam's spend for the last hour and in total, with refusals by budget", async () => {
    replyWith({ prompt_tokens: 100, completion_tokens: 20 });
    now = new Date('2026-11-24T14:00:00Z');
    const exam = examWithBudget({ examRequestsPerHour: 3, messagesPerWindow: 1 });
    const first = startAttempt(app, exam);
    expect((await chat(first.headers)).statusCode).toBe(200);
    expect((await chat(first.headers)).statusCode).toBe(429); // the attempt's own window
    expect((await chat(startAttempt(app, exam).headers)).statusCode).toBe(200);
    now = new Date('2026-11-24T15:30:00Z');
    for (let i = 0; i < 3; i++) await chat(startAttempt(app, exam).headers);
    expect((await chat(startAttempt(app, exam).headers)).statusCode).toBe(429); // the exam's hour

    const response = await usage(exam.id, exam.ownerId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      examId: exam.id,
      budget: { tokensPerHour: DEFAULT_AI_BUDGET.examTokensPerHour, requestsPerHour: 3 },
      lastHour: {
        requests: 3,
        tokens: 360,
        refusals: { examRequests: 1, examTokens: 0, attemptMessages: 0, attemptTokens: 0 },
      },
      total: {
        requests: 5,
        tokens: 600,
        refusals: { examRequests: 1, examTokens: 0, attemptMessages: 1, attemptTokens: 0 },
      },
    });
  });

  it('does not count a message taken back because its attempt was closed', async () => {
    replyWith();
    now = new Date('2026-11-24T16:00:00Z');
    const exam = examWithBudget({});
    const { headers } = startAttempt(app, exam, { isOpen: false });
    expect((await chat(headers)).statusCode).toBe(409);
    const body = (await usage(exam.id, exam.ownerId)).json();
    expect(body.total.requests).toBe(0);
    expect(body.lastHour.requests).toBe(0);
  });

  // This replica admits a message beside the exam's fetch under the budget it read last (candidate-chat.ts):
  // the budget the exam has when the message comes decides all the same.
  it('admits and refuses under the budget the exam has now, not the one this replica read before', async () => {
    replyWith();
    now = new Date('2026-11-24T17:00:00Z');
    const exam = examWithBudget({ messagesPerWindow: 1 });
    const { headers } = startAttempt(app, exam);
    expect((await chat(headers, 'first')).statusCode).toBe(200);
    // The creator allows more messages: the next one is admitted, although the last-read budget refuses it.
    const raised = { ...exam.aiSettings.budget, messagesPerWindow: 5 };
    app.platform.exams.set(exam.id, { ...exam, aiSettings: { ...exam.aiSettings, budget: raised } });
    expect((await chat(headers, 'second')).statusCode).toBe(200);
    // And fewer: the next one is refused, although the last-read budget admits it, and is not stored or counted.
    const lowered = { ...exam.aiSettings.budget, messagesPerWindow: 2 };
    app.platform.exams.set(exam.id, { ...exam, aiSettings: { ...exam.aiSettings, budget: lowered } });
    expect((await chat(headers, 'third')).statusCode).toBe(429);
    expect(calls).toHaveLength(2);
    const body = (await usage(exam.id, exam.ownerId)).json();
    expect(body.total.requests).toBe(2);
    const transcript = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    const sent = (transcript.json() as { messages: { role: string; content: string }[] }).messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(sent).toEqual(['first', 'second']);
  });

  it('stores and counts nothing of a message refused because the assistant was turned off since the last one', async () => {
    replyWith();
    now = new Date('2026-11-24T18:00:00Z');
    const exam = examWithBudget({});
    const { headers } = startAttempt(app, exam);
    expect((await chat(headers, 'first')).statusCode).toBe(200);
    app.platform.exams.set(exam.id, { ...exam, aiSettings: { ...exam.aiSettings, enabled: false } });
    expect((await chat(headers, 'second')).statusCode).toBe(403);
    expect((await usage(exam.id, exam.ownerId)).json().total.requests).toBe(1);
    const transcript = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    const contents = (transcript.json() as { messages: { content: string }[] }).messages.map((m) => m.content);
    expect(contents).not.toContain('second');
  });

  it('answers 404 to another creator and 401 without a creator token', async () => {
    const exam = examWithBudget({});
    app.platform.exams.set(exam.id, exam);
    expect((await usage(exam.id, 'someone-else')).statusCode).toBe(404);
    expect((await usage('no-such-exam', exam.ownerId)).statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: `/api/llm/exams/${exam.id}/usage` });
    expect(anonymous.statusCode).toBe(401);
  });
});
