import type { InternalAttempt, InternalExam } from '@exam/domain/internal';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../testing/provider-mocks.ts';
import { buildTestApp, TEST_ENDPOINTS, type TestApp } from '../testing/app.ts';
import { makeExam } from '../testing/exams.ts';
import { platformSources } from './platform-clients.ts';

/**
 * Two gateway replicas on one database, wired as server.ts wires them (real HTTP clients; exam-service and
 * results-service answer over msw). What one replica saw must not outlive a change another service made:
 * the next message on either replica follows the change.
 */
const EXAM_SERVICE = 'http://exam-service.test';
const RESULTS_SERVICE = 'http://results-service.test';
const server = setupServer();
const calls: RecordedCall[] = [];
let exam: InternalExam = makeExam({ ai: { stopSolutions: false } });
let attempt: InternalAttempt;

const replica = () =>
  buildTestApp({
    deps: platformSources({
      examServiceUrl: EXAM_SERVICE,
      resultsServiceUrl: RESULTS_SERVICE,
      internalToken: TEST_SECRETS.INTERNAL_TOKEN,
      timeoutMs: 2000,
    }),
  });

describe('two gateway replicas', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    [a, b] = await Promise.all([replica(), replica()]);
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    server.close();
  });

  const platform = () =>
    server.use(
      http.get(`${EXAM_SERVICE}/internal/exams/:id`, ({ params }) =>
        params.id === exam.id ? HttpResponse.json(exam) : HttpResponse.json({}, { status: 404 }),
      ),
      http.get(`${RESULTS_SERVICE}/internal/attempts/:id`, ({ params }) =>
        params.id === attempt.attemptId ? HttpResponse.json(attempt) : HttpResponse.json({}, { status: 404 }),
      ),
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () => sseResponse(openAiFrames(['Hi']))),
    );
  const openAttempt = (attemptId: string): InternalAttempt => ({
    attemptId,
    examId: exam.id,
    ownerId: exam.ownerId,
    startedAt: new Date().toISOString(),
    deadline: new Date(Date.now() + 3_600_000).toISOString(),
    submittedAt: null,
    isOpen: true,
  });
  const chat = (app: TestApp) =>
    app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers: {
        authorization: `Bearer ${app.jwt.sign({ kind: 'attempt', sub: attempt.attemptId, examId: exam.id, ownerId: exam.ownerId, name: 'Ada', studentId: 'S-1' })}`,
      },
      payload: { message: 'hello', questionIndex: null },
    });

  it('refuses the next message on both replicas once results-service has the attempt submitted', async () => {
    attempt = openAttempt('attempt-submitted-between-replicas');
    platform();
    expect((await chat(a)).statusCode).toBe(200);
    expect((await chat(b)).statusCode).toBe(200);
    // The candidate submits (through results-service): nothing is sent to the gateway.
    attempt = { ...attempt, submittedAt: new Date().toISOString(), isOpen: false };
    const onA = await chat(a);
    const onB = await chat(b);
    expect([onA.statusCode, onB.statusCode]).toEqual([409, 409]);
    expect(onA.json().error.code).toBe('ATTEMPT_CLOSED');
    expect(calls).toHaveLength(2);
  });

  it('shares the attempt budget through the database: a message counted on one replica is counted on the other', async () => {
    const base = makeExam({ ai: { stopSolutions: false } });
    exam = { ...base, aiSettings: { ...base.aiSettings, budget: { ...base.aiSettings.budget, messagesPerWindow: 2 } } };
    attempt = openAttempt('attempt-budget-between-replicas');
    platform();
    expect((await chat(a)).statusCode).toBe(200);
    expect((await chat(b)).statusCode).toBe(200);
    const third = await chat(a);
    expect(third.statusCode).toBe(429);
    expect(calls).toHaveLength(2);
  });

  it('obeys on replica B the creator turning the assistant off after replica A answered', async () => {
    exam = makeExam({ ai: { stopSolutions: false } });
    attempt = openAttempt('attempt-assistant-off-between-replicas');
    platform();
    expect((await chat(a)).statusCode).toBe(200);
    exam = { ...exam, aiSettings: { ...exam.aiSettings, enabled: false } };
    expect((await chat(b)).statusCode).toBe(403);
    expect((await chat(a)).statusCode).toBe(403);
    expect(calls).toHaveLength(1);
  });
});
