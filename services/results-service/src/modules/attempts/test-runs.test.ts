import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { RunnerMessages, RunReportSchema } from '@exam/domain/coding';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempts, events } from '../../db/schema.ts';
import { buildTestApp, startAttempt, type TestApp } from '../../testing/app.ts';
import { HIDDEN, makeCodingExam, makeExam } from '../../testing/exams.ts';
import { fakeClock, fakeWorkspaceFiles } from '../../testing/fakes.ts';

describe('Run tests (candidate check runs)', () => {
  const clock = fakeClock(new Date('2031-03-01T09:00:00Z'));
  const workspace = fakeWorkspaceFiles({
    'q2/solution.py': {
      content: 'pass small',
      lastModified: '2031-03-01T09:00:00Z',
      size: 10,
      type: 'text/x-python',
      isBinary: false,
      truncated: false,
    },
  });
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock, workspaceFiles: workspace }, env: { TEST_RUNS_PER_MINUTE: '3' } });
  });
  afterAll(() => app.close());

  const run = (attempt: { attemptId: string; headers: Record<string, string> }, index: number, code: string) =>
    app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/questions/${index}/test-runs`,
      headers: attempt.headers,
      payload: { code },
    });

  it('runs only the visible tests and never sends hidden test data to the runner or the candidate', async () => {
    const exam = app.exams.put(makeCodingExam());
    const attempt = await startAttempt(app, exam.id);
    const before = app.runner.requests.length;
    const response = await run(attempt, 1, 'pass small');
    expect(response.statusCode).toBe(200);
    const report = RunReportSchema.parse(response.json());
    expect(report.state).toBe('done');
    expect(report.verdicts.map((v) => [v.testId, v.outcome])).toEqual([
      ['small', 'passed'],
      ['large', 'failed'],
    ]);
    expect(report.verdicts[0]).toMatchObject({ stdin: '1 2', expected: '3', actual: '3' });
    expect(response.body).not.toContain(HIDDEN);
    const sent = app.runner.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ purpose: 'check', language: 'python', code: 'pass small', questionIndex: 1 });
    expect(sent[0]!.tests.map((t) => t.id)).toEqual(['small', 'large']);
    expect(JSON.stringify(sent[0])).not.toContain(HIDDEN);

    const again = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/test-runs/${report.runId}?waitMs=0`,
      headers: attempt.headers,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(report);
    const view = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/exam`,
      headers: attempt.headers,
    });
    expect(view.json().questions[1]).toMatchObject({
      hiddenTestCount: 1,
      visibleTests: [{ id: 'small' }, { id: 'large' }],
    });
    expect(view.body).not.toContain(HIDDEN);
    const logged = await app.db.select().from(events).where(eq(events.attemptId, attempt.attemptId));
    expect(logged.map((e) => [e.type, e.questionIndex, e.detail])).toEqual([['tests-run', 1, report.runId]]);
  });

  it('answers 202 while the run is queued, and the run once it finished', async () => {
    const exam = app.exams.put(makeCodingExam());
    const attempt = await startAttempt(app, exam.id);
    app.runner.hold = true;
    try {
      const queued = await run(attempt, 1, 'pass all');
      expect(queued.statusCode).toBe(202);
      expect(queued.json()).toMatchObject({ state: 'queued', verdicts: [] });
      app.runner.finish();
      const done = await app.inject({
        method: 'GET',
        url: `/api/attempts/${attempt.attemptId}/test-runs/${queued.json().runId}?waitMs=1000`,
        headers: attempt.headers,
      });
      expect(done.statusCode).toBe(200);
      expect(done.json().verdicts.map((v: { outcome: string }) => v.outcome)).toEqual(['passed', 'passed']);
      expect(done.body).not.toContain(HIDDEN);
    } finally {
      app.runner.hold = false;
    }
  });

  it("answers 404 for another attempt's run", async () => {
    const exam = app.exams.put(makeCodingExam());
    const mine = await startAttempt(app, exam.id);
    const theirs = await startAttempt(app, exam.id);
    const { runId } = (await run(theirs, 1, 'pass all')).json();
    const response = await app.inject({
      method: 'GET',
      url: `/api/attempts/${mine.attemptId}/test-runs/${runId}`,
      headers: mine.headers,
    });
    expect(response.statusCode).toBe(404);
    const foreign = await app.inject({
      method: 'POST',
      url: `/api/attempts/${theirs.attemptId}/questions/1/test-runs`,
      headers: mine.headers,
      payload: { code: 'pass all' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('answers 400 for a question without visible tests', async () => {
    const exam = makeCodingExam();
    const hiddenOnly = app.exams.put({
      ...exam,
      questions: exam.questions.map((q) => ({ ...q, tests: q.tests.map((t) => ({ ...t, visible: false })) })),
    });
    const attempt = await startAttempt(app, hiddenOnly.id);
    const response = await run(attempt, 1, 'pass all');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(RunnerMessages.noVisibleTests);
    expect((await run(attempt, 0, 'a')).statusCode).toBe(400);
    const plain = await startAttempt(app, app.exams.put(makeExam()).id);
    expect((await run(plain, 3, 'print(1)')).statusCode).toBe(400);
  });

  it('answers 429 with Retry-After past the runs allowed per minute for one attempt', async () => {
    const exam = app.exams.put(makeCodingExam());
    const attempt = await startAttempt(app, exam.id);
    const other = await startAttempt(app, exam.id);
    for (let i = 0; i < 3; i++) expect((await run(attempt, 1, 'pass all')).statusCode).toBe(200);
    const limited = await run(attempt, 1, 'pass all');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(RunnerMessages.rateLimited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await run(other, 1, 'pass all')).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await run(attempt, 1, 'pass all')).statusCode).toBe(200);
  });

  it('answers 409 once the attempt is submitted or past its deadline', async () => {
    const exam = app.exams.put(makeCodingExam({ timerEnabled: true, timerMinutes: 10 }));
    const submitted = await startAttempt(app, exam.id);
    await app.inject({
      method: 'POST',
      url: `/api/attempts/${submitted.attemptId}/submit`,
      headers: submitted.headers,
    });
    expect((await run(submitted, 1, 'pass all')).statusCode).toBe(409);
    const late = await startAttempt(app, exam.id);
    clock.advance(10 * 60_000 + DEADLINE_GRACE_SECONDS * 1000 + 1000);
    expect((await run(late, 1, 'pass all')).statusCode).toBe(409);
  });

  it('answers 503 with the reason a candidate can act on when no sandbox can run the code', async () => {
    const exam = app.exams.put(makeCodingExam());
    const attempt = await startAttempt(app, exam.id);
    app.runner.unavailable = 'no Docker engine at /var/run/docker.sock';
    try {
      const response = await run(attempt, 1, 'pass all');
      expect(response.statusCode).toBe(503);
      expect(response.json().error.message).toBe(RunnerMessages.unavailable);
    } finally {
      app.runner.unavailable = undefined;
    }
  });

  it("runs the workspace file the question names when the exam's coding workspace is on", async () => {
    const base = makeCodingExam({ codingWorkspace: { enabled: true, saveFilesInResults: false } });
    const exam = app.exams.put({
      ...base,
      questions: base.questions.map((q) => (q.type === 'coding' ? { ...q, workspaceFile: 'q2/solution.py' } : q)),
    });
    const attempt = await startAttempt(app, exam.id);
    const report = (await run(attempt, 1, 'pass all')).json();
    expect(report.verdicts.map((v: { outcome: string }) => v.outcome)).toEqual(['passed', 'failed']);
    expect(app.runner.requests.at(-1)!.code).toBe('pass small');
  });

  it("runs the question at the candidate's index in a shuffled exam", async () => {
    const base = makeCodingExam();
    const other = {
      ...base.questions[1]!,
      id: 'product',
      title: 'Multiply two numbers',
      tests: [{ ...base.questions[1]!.tests[0]!, id: 'product-small' }],
    };
    const exam = app.exams.put({ ...base, shuffleQuestions: true, questions: [...base.questions, other] });
    for (let tries = 0; tries < 20; tries++) {
      const attempt = await startAttempt(app, exam.id);
      const [row] = await app.db.select().from(attempts).where(eq(attempts.id, attempt.attemptId));
      const order = row!.examSnapshot.questions.map((q) => q.id);
      const index = order.indexOf('product');
      if (index === 2) continue; // the exam's own order: try another arrangement
      expect((await run(attempt, index, 'pass all')).statusCode).toBe(200);
      expect(app.runner.requests.at(-1)).toMatchObject({ questionIndex: index });
      expect(app.runner.requests.at(-1)!.tests.map((t) => t.id)).toEqual(['product-small']);
      return;
    }
    throw new Error('no attempt was arranged differently from the exam');
  });
});
