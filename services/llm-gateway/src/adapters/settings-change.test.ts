import type { InternalExam } from '@exam/domain/internal';
import { encryptSecret } from '@exam/server-kit/crypto';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../testing/provider-mocks.ts';
import { buildTestApp, testConfig, TEST_ENCRYPTION_KEY, TEST_ENDPOINTS, type TestApp } from '../testing/app.ts';
import { makeExam } from '../testing/exams.ts';
import { platformSources } from './platform-clients.ts';

/**
 * A creator's change to the assistant reaches the messages within a stated bound: the gateway wired as server.ts
 * wires it (platformSources, real HTTP clients), exam-service and results-service answering over msw as the
 * creator edits the exam between two messages. With EXAM_MESSAGE_MAX_AGE_MS 0 the very next message obeys; with
 * the default, every message that starts more than that bound after the change.
 */
const EXAM_SERVICE = 'http://exam-service.test';
const RESULTS_SERVICE = 'http://results-service.test';
const server = setupServer();
const calls: RecordedCall[] = [];
let exam: InternalExam = makeExam();
// A new attempt per test, so no test sees another's messages.
let attemptId = '';

const withKey = (current: InternalExam, key: string): InternalExam => ({
  ...current,
  aiSettings: {
    ...current.aiSettings,
    apiKeyLast4: key.slice(-4),
    encryptedApiKey: encryptSecret(key, Buffer.from(TEST_ENCRYPTION_KEY, 'base64url')),
  },
});

const DEFAULT_MAX_AGE_MS = testConfig().EXAM_MESSAGE_MAX_AGE_MS;
let clock = 0;

describe('a change to the exam settings', () => {
  let app: TestApp;
  let appWithDefault: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    const sources = (messageMaxAgeMs: number) =>
      platformSources({
        examServiceUrl: EXAM_SERVICE,
        resultsServiceUrl: RESULTS_SERVICE,
        internalToken: TEST_SECRETS.INTERNAL_TOKEN,
        timeoutMs: 2000,
        messageMaxAgeMs,
        now: () => clock,
      });
    app = await buildTestApp({ deps: sources(0) });
    appWithDefault = await buildTestApp({ deps: sources(DEFAULT_MAX_AGE_MS) });
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    await appWithDefault.close();
    server.close();
  });

  const platform = () =>
    server.use(
      http.get(`${EXAM_SERVICE}/internal/exams/:id`, ({ params }) =>
        params.id === exam.id ? HttpResponse.json(exam) : HttpResponse.json({}, { status: 404 }),
      ),
      http.get(`${RESULTS_SERVICE}/internal/attempts/:id`, () =>
        HttpResponse.json({
          attemptId,
          examId: exam.id,
          ownerId: exam.ownerId,
          startedAt: new Date().toISOString(),
          deadline: null,
          submittedAt: null,
          isOpen: true,
        }),
      ),
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () => sseResponse(openAiFrames(['Hi']))),
    );
  const chat = (through = app) =>
    through.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers: {
        authorization: `Bearer ${app.jwt.sign({ kind: 'attempt', sub: attemptId, examId: exam.id, ownerId: exam.ownerId, name: 'Ada', studentId: 'S-1' })}`,
      },
      payload: { message: 'hello', questionIndex: null },
    });

  it('uses the new provider key for the very next message', async () => {
    exam = withKey(makeExam({ ai: { stopSolutions: false } }), 'sk-old-key-1111');
    attemptId = 'attempt-new-key';
    platform();
    expect((await chat()).statusCode).toBe(200);
    exam = withKey(exam, 'sk-new-key-2222');
    expect((await chat()).statusCode).toBe(200);
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer sk-old-key-1111', 'Bearer sk-new-key-2222']);
  });

  it('refuses the very next message once the creator turns the assistant off, without an upstream call', async () => {
    exam = makeExam({ ai: { stopSolutions: false } });
    attemptId = 'attempt-assistant-off';
    platform();
    expect((await chat()).statusCode).toBe(200);
    exam = { ...exam, aiSettings: { ...exam.aiSettings, enabled: false } };
    const refused = await chat();
    expect(refused.statusCode).toBe(403);
    expect(calls).toHaveLength(1);
  });

  it('refuses every message once the default bound has passed since the creator turned the assistant off', async () => {
    expect(DEFAULT_MAX_AGE_MS).toBeGreaterThan(0);
    expect(DEFAULT_MAX_AGE_MS).toBeLessThanOrEqual(1000);
    clock = 10_000;
    exam = makeExam({ ai: { stopSolutions: false } });
    attemptId = 'attempt-assistant-off-bounded';
    platform();
    expect((await chat(appWithDefault)).statusCode).toBe(200);
    exam = { ...exam, aiSettings: { ...exam.aiSettings, enabled: false } };
    // Inside the bound this replica may still use its copy read before the change...
    clock += DEFAULT_MAX_AGE_MS - 1;
    expect((await chat(appWithDefault)).statusCode).toBe(200);
    // ...and from the bound on it asks exam-service again and obeys.
    clock += 1;
    expect((await chat(appWithDefault)).statusCode).toBe(403);
    expect((await chat(appWithDefault)).statusCode).toBe(403);
    expect(calls).toHaveLength(2);
  });
});
