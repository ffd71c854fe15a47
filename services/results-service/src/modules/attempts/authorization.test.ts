import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeExam } from '../../testing/exams.ts';
import { multipart } from '../../testing/multipart.ts';

/** The exam view lists an MCQ's options, one of which is the key; nothing else may mention the key. */
function withoutMcqOptions(body: string): string {
  const exam = JSON.parse(body) as { questions: Array<{ type: string; options?: string[] }> };
  for (const question of exam.questions) if (question.type === 'mcq') delete question.options;
  return JSON.stringify(exam);
}

describe('attempt routes authorization and secrecy', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  type Route = { method: 'GET' | 'PUT' | 'POST'; url: string; payload?: object; headers?: Record<string, string> };
  /** Every attempt route, addressed at `attemptId`, with a valid body. */
  const routes = (attemptId: string): Route[] => [
    { method: 'GET', url: `/api/attempts/${attemptId}` },
    { method: 'GET', url: `/api/attempts/${attemptId}/exam` },
    { method: 'PUT', url: `/api/attempts/${attemptId}/answers/0`, payload: { answer: 'Nucleus', seq: 99 } },
    { method: 'POST', url: `/api/attempts/${attemptId}/events`, payload: { events: [{ type: 'copy' }] } },
    { method: 'POST', url: `/api/attempts/${attemptId}/files/2`, ...multipart('report.txt', Buffer.from('hello')) },
    { method: 'POST', url: `/api/attempts/${attemptId}/submit` },
    { method: 'GET', url: `/api/attempts/${attemptId}/result` },
    {
      method: 'POST',
      url: `/api/attempts/${attemptId}/questions/0/check`,
      payload: { answer: 'Nucleus', seq: 99 },
    },
    { method: 'GET', url: `/api/attempts/${attemptId}/review` },
  ];

  it("answers 404 on every attempt route when a candidate uses their token on another candidate's attempt", async () => {
    const exam = app.exams.put(makeExam());
    const victim = await startAttempt(app, exam.id);
    const intruder = await startAttempt(app, exam.id);
    for (const route of routes(victim.attemptId)) {
      const response = await app.inject({ ...route, headers: { ...route.headers, ...intruder.headers } });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
    }
    const state = await app.inject({
      method: 'GET',
      url: `/api/attempts/${victim.attemptId}`,
      headers: victim.headers,
    });
    expect(state.json()).toMatchObject({ submittedAt: null, answers: {} });
  });

  it('answers 403 to a creator token and 401 without a token on every attempt route', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    for (const route of routes(attempt.attemptId)) {
      const asCreator = await app.inject({
        ...route,
        headers: { ...route.headers, ...creatorHeaders(app, exam.ownerId) },
      });
      expect(asCreator.statusCode, `${route.method} ${route.url}`).toBe(403);
      const anonymous = await app.inject(route);
      expect(anonymous.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('answers 403 to an attempt token on the creator routes', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    const { resultId } = (
      await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers })
    ).json();
    for (const url of [
      '/api/results',
      '/api/results/summary',
      `/api/results/${resultId}`,
      `/api/exams/${exam.id}/results.csv`,
    ]) {
      expect((await app.inject({ method: 'GET', url, headers: attempt.headers })).statusCode, url).toBe(403);
    }
  });

  it('never sends the correct answer or accepted answers in any attempt-route response', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    const bodies: string[] = [JSON.stringify(attempt)];
    let resultId = '';
    for (const route of routes(attempt.attemptId)) {
      // The result is read below, once a grader has marked and released it. Checking and the review belong to
      // practice exams and review windows, which this exam has not: practice.test.ts shows keys stay hidden there.
      if (['/result', '/check', '/review'].some((end) => route.url.endsWith(end))) continue;
      const response = await app.inject({ ...route, headers: { ...route.headers, ...attempt.headers } });
      expect(response.statusCode, `${route.method} ${route.url}`).toBeLessThan(300);
      if (route.url.endsWith('/submit')) resultId = response.json<{ resultId: string }>().resultId;
      bodies.push(route.url.endsWith('/exam') ? withoutMcqOptions(response.body) : response.body);
    }
    const owner = creatorHeaders(app, exam.ownerId);
    const grading = [2, 3].map((questionIndex) => ({ questionIndex, points: 1 }));
    await app.inject({ method: 'PATCH', url: `/api/results/${resultId}`, headers: owner, payload: { grading } });
    const released = await app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/release`,
      headers: owner,
      payload: { released: true },
    });
    expect(released.statusCode).toBe(200);
    const result = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/result`,
      headers: attempt.headers,
    });
    expect(result.statusCode).toBe(200);
    bodies.push(result.body);
    bodies.push(
      (
        await app.inject({
          method: 'POST',
          url: '/api/attempts',
          payload: { examId: exam.id, name: 'x', studentId: attempt.studentId },
        })
      ).body,
    );
    for (const body of bodies) expect(body).not.toContain(CANARY);
  });
});
