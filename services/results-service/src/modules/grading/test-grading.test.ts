import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { CandidateResultSchema, ResultDetailSchema, type ResultDetail } from '@exam/domain/result';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testGradings } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { HIDDEN, makeCodingExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { sitExam } from '../../testing/sitting.ts';
import { UNREACHABLE_REASON } from '../../adapters/code-runner.ts';
import { MAX_TRIES } from './test-grading.service.ts';

describe('grading coding questions by tests at submission', () => {
  // Later than the other suites' clocks, so the job's passes see this suite's rows as due.
  const clock = fakeClock(new Date('2041-01-10T08:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());
  beforeEach(() => {
    Object.assign(app.runner, {
      hold: false,
      unavailable: undefined,
      down: false,
      delayMs: 0,
      beforeEnqueue: undefined,
    });
  });

  async function sat(code: string, overrides: Parameters<typeof makeCodingExam>[0] = {}) {
    const exam = app.exams.put(makeCodingExam({ releasePolicy: 'immediately', ...overrides }));
    const { resultId, attempt } = await sitExam(app, exam.id, { 0: 'a', 1: code });
    const owner = creatorHeaders(app, exam.ownerId);
    const detail = async () =>
      ResultDetailSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner })).json(),
      );
    const patch = (grading: unknown[]) =>
      app.inject({ method: 'PATCH', url: `/api/results/${resultId}`, headers: owner, payload: { grading } });
    return { exam, resultId, attempt, owner, detail, patch };
  }

  /** Runs job passes until nothing moves (start, then collect). */
  async function drain() {
    for (let i = 0; i < 10 && (await app.gradeTests()) > 0; i++);
  }

  it('queues the question at submission, then scores the passed tests and marks the result graded', async () => {
    const { resultId, detail, attempt } = await sat('pass all');
    const queued = await detail();
    expect(queued.questionAnswers[1]).toMatchObject({
      points: null,
      maxPoints: 6,
      isGraded: false,
      tests: { state: 'queued', runId: null, verdicts: [] },
    });
    expect(queued).toMatchObject({ score: 1, maxScore: 7, status: 'pending', pendingCount: 1 });
    const rows = await app.db.select().from(testGradings).where(eq(testGradings.resultId, resultId));
    expect(rows).toMatchObject([{ questionIndex: 1, code: 'pass all', state: 'queued', runId: null }]);

    const before = app.runner.requests.length;
    await drain();
    const graded = await detail();
    expect(graded).toMatchObject({ score: 7, maxScore: 7, status: 'graded', pendingCount: 0 });
    expect(graded.questionAnswers[1]).toMatchObject({ points: 6, autoScored: true, tests: { state: 'done' } });
    // Creators see every test with its data.
    expect(JSON.stringify(graded.questionAnswers[1]!.tests)).toContain(HIDDEN);
    const sent = app.runner.requests.slice(before).filter((r) => r.attemptId === attempt.attemptId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ purpose: 'grade', code: 'pass all', questionIndex: 1 });
    expect(sent[0]!.tests.map((t) => t.id)).toEqual(['small', 'large', 'secret']);
    expect(graded.history).toEqual([
      {
        at: clock.now().toISOString(),
        by: 'runner',
        kind: 'tests',
        questionIndex: 1,
        before: { points: null, feedback: '' },
        after: { points: 6, feedback: '' },
      },
    ]);

    // The candidate sees every outcome, but no hidden test's data.
    const shown = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/result`,
      headers: attempt.headers,
    });
    expect(shown.statusCode).toBe(200);
    const result = CandidateResultSchema.parse(shown.json());
    expect(result.questions[1]!.tests!.verdicts.map((v) => [v.testId, v.outcome, v.visible])).toEqual([
      ['small', 'passed', true],
      ['large', 'passed', true],
      ['secret', 'passed', false],
    ]);
    expect(result.questions[1]!.tests!.verdicts[0]).toMatchObject({ stdin: '1 2', expected: '3' });
    expect(shown.body).not.toContain(HIDDEN);
  });

  it('gives the points of the passed tests only', async () => {
    const { detail, attempt } = await sat('pass small\npass secret');
    await drain();
    const result = await detail();
    expect(result.questionAnswers[1]).toMatchObject({ points: 4, maxPoints: 6 });
    expect(result.questionAnswers[1]!.tests!.verdicts.map((v) => v.outcome)).toEqual(['passed', 'failed', 'passed']);
    expect(result).toMatchObject({ score: 5, maxScore: 7, status: 'graded' });

    // The candidate reads why: 2 of the 3 tests passed (the hidden one counted, never shown), code in Python.
    const shown = CandidateResultSchema.parse(
      (
        await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}/result`, headers: attempt.headers })
      ).json(),
    );
    expect(shown.questions[1]).toMatchObject({
      language: 'python',
      markedBy: 'tests',
      partialCredit: { kind: 'tests', right: 2, of: 3, rule: 'partial' },
    });
  });

  it('leaves the question to a grader with the reason when no sandbox can run it, and runs again on request', async () => {
    const { resultId, owner, detail } = await sat('pass all');
    app.runner.unavailable = 'no Docker engine is reachable';
    await drain();
    const waiting = await detail();
    expect(waiting.questionAnswers[1]).toMatchObject({
      points: null,
      tests: { state: 'unavailable', reason: 'no Docker engine is reachable' },
    });
    expect(waiting).toMatchObject({ status: 'pending', pendingCount: 1 });
    expect(waiting.history.at(-1)).toMatchObject({
      kind: 'tests',
      by: 'runner',
      reason: 'no Docker engine is reachable',
    });

    app.runner.unavailable = undefined;
    const rerun = await app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/questions/1/rerun-tests`,
      headers: owner,
    });
    expect(rerun.statusCode).toBe(200);
    expect(rerun.json<ResultDetail>().questionAnswers[1]!.tests).toMatchObject({ state: 'queued' });
    await drain();
    expect(await detail()).toMatchObject({ score: 7, status: 'graded' });

    const stranger = await app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/questions/1/rerun-tests`,
      headers: creatorHeaders(app, 'someone-else'),
    });
    expect(stranger.statusCode).toBe(404);
    const notTested = await app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/questions/0/rerun-tests`,
      headers: owner,
    });
    expect(notTested.statusCode).toBe(400);
  });

  it('retries a failing runner with back-off and gives up to a grader after the last try', async () => {
    const { resultId, detail } = await sat('pass all');
    app.runner.down = true;
    await app.gradeTests();
    const [row] = await app.db.select().from(testGradings).where(eq(testGradings.resultId, resultId));
    expect(row).toMatchObject({ state: 'queued', tries: 1 });
    expect(row!.nextAt.getTime()).toBeGreaterThan(clock.now().getTime());
    await app.gradeTests();
    expect((await app.db.select().from(testGradings).where(eq(testGradings.resultId, resultId)))[0]!.tries).toBe(1);

    for (let i = 1; i < MAX_TRIES; i++) {
      clock.advance(10 * 60_000);
      await app.gradeTests();
    }
    const failed = await detail();
    expect(failed.questionAnswers[1]!.tests).toMatchObject({ state: 'error' });
    expect(failed.questionAnswers[1]!.tests!.reason).toMatch(/kept failing/);
    // The runner's own error text is logged, never shown.
    expect(failed.questionAnswers[1]!.tests!.reason).not.toMatch(/workspace-orchestrator|answered 500|unreachable/);
    expect(failed).toMatchObject({ status: 'pending' });
  });

  it('tries an unreachable runner again with back-off instead of leaving the question to a grader at once', async () => {
    const { resultId, detail } = await sat('pass all');
    app.runner.unavailable = UNREACHABLE_REASON;
    await app.gradeTests();
    const [row] = await app.db.select().from(testGradings).where(eq(testGradings.resultId, resultId));
    expect(row).toMatchObject({ state: 'queued', tries: 1, runId: null });
    expect((await detail()).questionAnswers[1]!.tests).toMatchObject({ state: 'queued' });
    app.runner.unavailable = undefined;
    clock.advance(10 * 60_000);
    await drain();
    expect(await detail()).toMatchObject({ score: 7, status: 'graded' });
  });

  it('calls the runner with no transaction open, so the runner may use the same database meanwhile', async () => {
    const { resultId, detail } = await sat('pass all');
    const seen: unknown[] = [];
    app.runner.beforeEnqueue = async () => {
      // Locks the claimed row without waiting: refused on PostgreSQL, or never answered on the embedded
      // database (one connection at a time), while the claiming transaction is still open.
      const locking = app.db
        .select({ state: testGradings.state })
        .from(testGradings)
        .where(eq(testGradings.resultId, resultId))
        .for('update', { noWait: true });
      const late = new Promise((_, reject) => setTimeout(() => reject(new Error('the claim is still open')), 3000));
      seen.push(...((await Promise.race([locking, late])) as unknown[]));
    };
    await drain();
    expect(seen).toEqual([{ state: 'queued' }]);
    expect(await detail()).toMatchObject({ score: 7, status: 'graded' });
  });

  it('leaves a row another writer changed while the runner was called to the next pass', async () => {
    const { resultId, detail } = await sat('pass all');
    app.runner.beforeEnqueue = async () => {
      await app.db
        .update(testGradings)
        .set({ updatedAt: new Date(clock.now().getTime() + 1) })
        .where(eq(testGradings.resultId, resultId));
    };
    await app.gradeTests();
    const [row] = await app.db.select().from(testGradings).where(eq(testGradings.resultId, resultId));
    expect(row).toMatchObject({ state: 'queued', runId: null });
    app.runner.beforeEnqueue = undefined;
    clock.advance(10 * 60_000);
    await drain();
    expect(await detail()).toMatchObject({ score: 7, status: 'graded' });
  });

  it("keeps a grader's override, which needs a reason kept in the history, over the tests' points", async () => {
    const { detail, patch } = await sat('pass small');
    await drain();
    expect((await detail()).questionAnswers[1]!.points).toBe(1);

    const refused = await patch([{ questionIndex: 1, points: 5 }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues).toEqual([{ path: 'grading.0.reason', message: expect.any(String) }]);

    const saved = await patch([{ questionIndex: 1, points: 5, reason: 'The large test expects the wrong sum' }]);
    expect(saved.statusCode).toBe(200);
    const result = saved.json<ResultDetail>();
    expect(result.questionAnswers[1]).toMatchObject({ points: 5, autoScored: false, tests: { state: 'done' } });
    expect(result.score).toBe(6);
    expect(result.history.at(-1)).toMatchObject({
      kind: 'grade',
      questionIndex: 1,
      before: { points: 1 },
      after: { points: 5 },
      reason: 'The large test expects the wrong sum',
    });
    // Marks of other questions need no reason.
    expect((await patch([{ questionIndex: 0, points: 0 }])).statusCode).toBe(200);
  });

  it('queues the questions of attempts the finalizer submits', async () => {
    const exam = app.exams.put(makeCodingExam({ timerEnabled: true, timerMinutes: 5 }));
    const attempt = await startAttempt(app, exam.id);
    await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/1`,
      headers: attempt.headers,
      payload: { answer: 'pass large', seq: 1 },
    });
    clock.advance(5 * 60_000 + DEADLINE_GRACE_SECONDS * 1000 + 1000);
    await app.finalizeExpired();
    const rows = await app.db.select().from(testGradings).where(eq(testGradings.attemptId, attempt.attemptId));
    expect(rows).toMatchObject([{ questionIndex: 1, code: 'pass large', state: 'queued' }]);
    await drain();
    const [done] = await app.db.select().from(testGradings).where(eq(testGradings.attemptId, attempt.attemptId));
    expect(done!.state).toBe('done');
  });

  it('starts each run once when two job passes race', async () => {
    app.runner.hold = true;
    app.runner.delayMs = 20;
    const sittings = await Promise.all([sat('pass all'), sat('pass all'), sat('pass all')]);
    const attemptIds = new Set(sittings.map((s) => s.attempt.attemptId));
    const before = app.runner.requests.length;
    await Promise.all([app.gradeTests(), app.gradeTests()]);
    const sent = app.runner.requests.slice(before).filter((r) => attemptIds.has(r.attemptId ?? ''));
    expect(sent).toHaveLength(3);
    for (const s of sittings) {
      const [row] = await app.db
        .select()
        .from(testGradings)
        .where(and(eq(testGradings.resultId, s.resultId), eq(testGradings.questionIndex, 1)));
      expect(row).toMatchObject({ state: 'running' });
    }
    app.runner.finish();
    await drain();
    for (const s of sittings) expect(await s.detail()).toMatchObject({ score: 7, status: 'graded' });
  });

  it('runs the workspace file the question names, collected at submission', async () => {
    const base = makeCodingExam({ codingWorkspace: { enabled: true, saveFilesInResults: false } });
    const exam = app.exams.put({
      ...base,
      questions: base.questions.map((q) => (q.type === 'coding' ? { ...q, workspaceFile: 'q2/solution.py' } : q)),
    });
    const files = {
      'q2/solution.py': {
        content: 'pass large',
        lastModified: clock.now().toISOString(),
        size: 10,
        type: 'text/x-python',
        isBinary: false,
        truncated: false,
      },
    };
    const workspaceApp = await buildTestApp({
      deps: { clock, workspaceFiles: { collect: async () => files } },
    });
    try {
      workspaceApp.exams.put(exam);
      const { resultId } = await sitExam(workspaceApp, exam.id, { 1: 'pass all' });
      const [row] = await workspaceApp.db.select().from(testGradings).where(eq(testGradings.resultId, resultId));
      expect(row!.code).toBe('pass large');
      const stored = await workspaceApp.inject({
        method: 'GET',
        url: `/api/results/${resultId}`,
        headers: creatorHeaders(workspaceApp, exam.ownerId),
      });
      // The exam does not keep workspace files in results: only the graded code is kept, in the outbox.
      expect(stored.json<ResultDetail>().workspace_files).toEqual({});
    } finally {
      await workspaceApp.close();
    }
  });

  it('keeps the verdicts through a regrade and a release', async () => {
    const { exam, resultId, owner, detail } = await sat('pass small\npass large', { releasePolicy: 'on-release' });
    await drain();
    const graded = await detail();
    expect(graded.questionAnswers[1]!.points).toBe(3);
    const regraded = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/regrade?dryRun=false`,
      headers: owner,
    });
    expect(regraded.statusCode).toBe(200);
    const released = await app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/release`,
      headers: owner,
      payload: { released: true },
    });
    expect(released.statusCode).toBe(200);
    const after = await detail();
    expect(after).toMatchObject({ score: 4, status: 'released' });
    expect(after.questionAnswers[1]!.tests).toEqual(graded.questionAnswers[1]!.tests);
  });

  it('runs the tests again when a regrade finds they changed, and scores the new verdicts', async () => {
    const { exam, owner, detail } = await sat('pass small\npass large', { releasePolicy: 'on-release' });
    await drain();
    expect((await detail()).questionAnswers[1]).toMatchObject({ points: 3, maxPoints: 6 });
    // The creator makes the hidden test worth more and adds one.
    const changed = structuredClone(exam);
    const coding = changed.questions[1]!;
    coding.tests = [
      ...coding.tests.map((t) => (t.id === 'secret' ? { ...t, points: 5 } : t)),
      { ...coding.tests[0]!, id: 'extra', name: 'Extra', visible: false, points: 2 },
    ];
    coding.points = 10;
    app.exams.put(changed);
    const regrade = (dryRun: boolean) =>
      app.inject({ method: 'POST', url: `/api/exams/${exam.id}/regrade?dryRun=${dryRun}`, headers: owner });
    const preview = await regrade(true);
    expect(preview.json()).toMatchObject({ dryRun: true, testsRerun: 1 });
    expect((await detail()).questionAnswers[1]!.tests!.state).toBe('done');

    const before = app.runner.requests.length;
    expect((await regrade(false)).json()).toMatchObject({ dryRun: false, testsRerun: 1 });
    const pending = await detail();
    expect(pending.questionAnswers[1]).toMatchObject({ points: null, maxPoints: 10, tests: { state: 'queued' } });
    expect(pending.status).toBe('pending');
    await drain();
    const sent = app.runner.requests.slice(before).filter((r) => r.examId === exam.id);
    expect(sent.map((r) => r.tests.map((t) => [t.id, t.points]))).toEqual([
      [
        ['small', 1],
        ['large', 2],
        ['secret', 5],
        ['extra', 2],
      ],
    ]);
    const regraded = await detail();
    expect(regraded.questionAnswers[1]).toMatchObject({ points: 3, maxPoints: 10, tests: { state: 'done' } });
    expect(regraded.questionAnswers[1]!.tests!.verdicts).toHaveLength(4);
    expect(regraded.status).toBe('graded');
    // Unchanged tests are not run again by a second regrade.
    expect((await regrade(false)).json()).toMatchObject({ testsRerun: 0 });
  });

  it('starts every queued run in one pass, batch after batch', async () => {
    await drain();
    app.runner.hold = true;
    const sittings = [];
    for (let i = 0; i < 23; i++) sittings.push(await sat('pass all'));
    const attemptIds = new Set(sittings.map((s) => s.attempt.attemptId));
    const before = app.runner.requests.length;
    await app.gradeTests();
    const sent = app.runner.requests.slice(before).filter((r) => attemptIds.has(r.attemptId ?? ''));
    expect(sent).toHaveLength(23);
    app.runner.finish();
    await app.gradeTests();
    for (const s of sittings) expect((await s.detail()).status).toBe('graded');
  });
});
