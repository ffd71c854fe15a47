import { RUNNER_UNAVAILABLE, type RunReport } from '@exam/domain/coding';
import { plainRunnerUnavailable } from '@exam/domain/service-status';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, creatorToken, NO_ENGINE_SOCKET } from '../../testing/app.ts';
import { fakeRunnerEngine, testRunnerWorker } from '../../testing/runner.ts';
import { ESCAPED_MARKER, runnerFailedReason } from './runner-verdicts.ts';

const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };

function runRequest(code: string, overrides: Record<string, unknown> = {}) {
  return {
    purpose: 'check',
    language: 'python',
    code,
    tests: [
      { id: 't1', name: 'Sample', stdin: 'abc', expected: 'abc', visible: true, points: 2 },
      { id: 't2', stdin: 'xyz', expected: 'XYZ', points: 3 },
    ],
    limits: { cpuSeconds: 1, memoryMb: 64 },
    attemptId: 'attempt-1',
    questionIndex: 0,
    ...overrides,
  };
}

describe('the code runner queue (fake engine)', () => {
  const fake = fakeRunnerEngine();
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  const workerOf = (opts: Parameters<typeof testRunnerWorker>[1] = {}) => testRunnerWorker(app, opts);
  const enqueue = async (code: string, overrides: Record<string, unknown> = {}) => {
    const response = await app.inject({
      method: 'POST',
      url: '/internal/runs',
      headers: internal,
      payload: runRequest(code, overrides),
    });
    expect(response.statusCode).toBe(202);
    return response.json() as RunReport;
  };
  const report = async (runId: string, waitMs = 0) =>
    (await app.inject({ url: `/internal/runs/${runId}?waitMs=${waitMs}`, headers: internal })).json() as RunReport;

  beforeAll(async () => {
    app = await buildTestApp({
      socketPath: NO_ENGINE_SOCKET,
      instance: 'none',
      env: { RUNNER_REFERENCE_PER_MINUTE: '3' },
      deps: { runnerEngine: fake.engine },
    });
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    fake.release();
    fake.setUnavailable(undefined);
    // Every test starts from an empty queue, so one test's leftovers never count in another's claims.
    const sweeper = workerOf({ concurrency: 50 });
    while ((await sweeper.pass()) > 0) await sweeper.drain();
    await app.runner.repo.recoverExpired(new Date(Date.now() + 10 * 3600_000), 0);
    await app.runner.repo.prune(new Date(Date.now() + 10 * 3600_000));
  });

  it('queues a run, runs it and reports a verdict per test with the points of the passed ones', async () => {
    const queued = await enqueue('echo');
    expect(queued).toMatchObject({ state: 'queued', verdicts: [], points: 0, maxPoints: 5, finishedAt: null });
    const worker = workerOf();
    expect(await worker.pass()).toBe(1);
    await worker.drain();
    const done = await report(queued.runId);
    expect(done.state).toBe('done');
    expect(done.points).toBe(2);
    expect(done.verdicts).toEqual([
      expect.objectContaining({
        testId: 't1',
        name: 'Sample',
        outcome: 'passed',
        points: 2,
        maxPoints: 2,
        visible: true,
      }),
      expect.objectContaining({ testId: 't2', outcome: 'failed', points: 0, expected: 'XYZ', actual: 'xyz' }),
    ]);
    expect(done.finishedAt).not.toBeNull();
  });

  it('holds GET ?waitMs until the run is finished, and answers at once without it', async () => {
    const queued = await enqueue('upper');
    expect((await report(queued.runId)).state).toBe('queued');
    const waiting = report(queued.runId, 10_000);
    const worker = workerOf();
    await worker.pass();
    await worker.drain();
    const done = await waiting;
    expect(done.state).toBe('done');
    expect(done.verdicts.map((v) => v.outcome)).toEqual(['failed', 'passed']);
  });

  it('reports timeouts, runtime errors with stderr and compile errors with the compiler output', async () => {
    const [loop, crash, syntax] = [await enqueue('loop'), await enqueue('crash'), await enqueue('syntax error')];
    const worker = workerOf({ concurrency: 3 });
    await worker.pass();
    await worker.drain();
    expect((await report(loop.runId)).verdicts.map((v) => v.outcome)).toEqual(['timeout', 'timeout']);
    const crashed = await report(crash.runId);
    expect(crashed.verdicts[0]).toMatchObject({ outcome: 'runtime-error', exitCode: 1, stderr: 'Traceback: boom' });
    const compiled = await report(syntax.runId);
    expect(compiled.verdicts.map((v) => v.outcome)).toEqual(['compile-error', 'compile-error']);
    expect(compiled.compileOutput).toContain('expected ;');
  });

  it('looks up several runs at once and leaves out unknown ids', async () => {
    const a = await enqueue('echo');
    const b = await enqueue('echo');
    const response = await app.inject({
      method: 'POST',
      url: '/internal/runs/lookup',
      headers: internal,
      payload: { ids: [a.runId, 'unknown', b.runId] },
    });
    expect(response.statusCode).toBe(200);
    expect((response.json().runs as RunReport[]).map((r) => r.runId).sort()).toEqual([a.runId, b.runId].sort());
    expect((await app.inject({ url: '/internal/runs/unknown', headers: internal })).statusCode).toBe(404);
  });

  it('refuses the internal routes without the internal token', async () => {
    const response = await app.inject({ method: 'POST', url: '/internal/runs', payload: runRequest('echo') });
    expect(response.statusCode).toBe(401);
  });

  it('answers 503 RUNNER_UNAVAILABLE in plain words, without the operator detail, when no sandbox can take the run', async () => {
    fake.setUnavailable('runner image exam/runner-r is not built (scripts/build-runner-images.sh r)', 'image-missing');
    const response = await app.inject({
      method: 'POST',
      url: '/internal/runs',
      headers: internal,
      payload: runRequest('echo', { language: 'r' }),
    });
    expect(response.statusCode).toBe(503);
    const error = response.json().error as { code: string; message: string };
    expect(error.code).toBe(RUNNER_UNAVAILABLE);
    expect(error.message).toBe(plainRunnerUnavailable('image-missing', 'r'));
    expect(error.message).toMatch(/^R code cannot be run on this platform yet/);
    // The operator's words (image, script) are for the log and the status page only.
    expect(response.body).not.toMatch(/exam\/runner-r|build-runner-images|scripts\//);
  });

  it("lists each language's runner on the administrators' status, with the operator's detail there only", async () => {
    fake.setUnavailable('runner image exam/runner-r is not built (scripts/build-runner-images.sh r)', 'image-missing');
    const response = await app.inject({ url: '/internal/status', headers: internal });
    expect(response.statusCode).toBe(200);
    const items = response.json().items as Array<{ name: string; state: string; summary: string; detail?: string }>;
    expect(items.find((i) => i.name === 'code runner: r')).toEqual({
      name: 'code runner: r',
      state: 'failing',
      summary: 'Not installed',
      detail: 'runner image exam/runner-r is not built (scripts/build-runner-images.sh r)',
    });
    expect(items.find((i) => i.name === 'database')).toMatchObject({ state: 'ok' });
    expect(items.filter((i) => i.name.startsWith('workspace: ')).map((i) => i.name)).toEqual([
      'workspace: vscode',
      'workspace: r-studio',
      'workspace: oracle-sql',
      'workspace: excel',
    ]);
    expect((await app.inject({ url: '/internal/status' })).statusCode).toBe(401);
  });

  it('never executes more than its concurrency at once, and takes the next run as one ends', async () => {
    fake.gate();
    const runs = await Promise.all([1, 2, 3, 4, 5].map(() => enqueue('echo')));
    const worker = workerOf({ concurrency: 2 });
    expect(await worker.pass()).toBe(2);
    expect(await worker.pass()).toBe(0);
    expect(worker.activeCount()).toBe(2);
    const loop = worker.start();
    fake.release();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const states = await Promise.all(runs.map((r) => report(r.runId)));
      if (states.every((s) => s.state === 'done')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await loop.stop();
    await worker.drain();
    expect((await Promise.all(runs.map((r) => report(r.runId)))).map((r) => r.state)).toEqual(Array(5).fill('done'));
    expect(fake.maxRunning).toBeLessThanOrEqual(2);
  });

  it('keeps the global cap across replicas: two workers of 2 with a cap of 3 start 3', async () => {
    fake.gate();
    await Promise.all([1, 2, 3, 4, 5].map(() => enqueue('echo')));
    const a = workerOf({ concurrency: 2, globalConcurrency: 3 });
    const b = workerOf({ concurrency: 2, globalConcurrency: 3 });
    const claimed = (await Promise.all([a.pass(), b.pass()])).reduce((x, y) => x + y, 0);
    expect(claimed).toBe(3);
    fake.release();
    await Promise.all([a.drain(), b.drain()]);
  });

  it('retries a run the runner failed once, and records an error after the second failure', async () => {
    const once = await enqueue('echo');
    fake.failNext(1);
    const worker = workerOf({ concurrency: 1 });
    await worker.pass();
    await worker.drain();
    expect((await report(once.runId)).state).toBe('queued');
    await worker.pass();
    await worker.drain();
    expect((await report(once.runId)).state).toBe('done');

    const twice = await enqueue('echo');
    fake.failNext(2);
    for (let i = 0; i < 2; i++) {
      await worker.pass();
      await worker.drain();
    }
    const failed = await report(twice.runId);
    expect(failed.state).toBe('error');
    // The engine's (or the database driver's) text stays in the log: the reason names the run only.
    expect(failed.reason).toBe(runnerFailedReason(twice.runId));
    expect(failed.reason).not.toContain('refused');
  });

  it('stores the output of a program that prints NUL bytes and invalid UTF-8, shown as U+FFFD and marked', async () => {
    const run = await enqueue('binary');
    const worker = workerOf();
    await worker.pass();
    await worker.drain();
    const done = await report(run.runId);
    expect(done.state).toBe('done');
    expect(done.reason).toBeUndefined();
    expect(done.verdicts.map((v) => v.outcome)).toEqual(['failed', 'failed']);
    const [first] = done.verdicts;
    expect(first!.actual).toBe(`ok\uFFFD\uFFFD\uFFFD\n${ESCAPED_MARKER}`);
    expect(first!.stderr).toBe(first!.actual);
    // Whoever reads the run later (results-service's lookup) reads it from the database the same way.
    const [looked] = (
      await app.inject({
        method: 'POST',
        url: '/internal/runs/lookup',
        headers: internal,
        payload: { ids: [run.runId] },
      })
    ).json().runs as RunReport[];
    expect(looked!.verdicts[0]!.actual).toBe(first!.actual);
  });

  it('queues again a run whose replica died (lease expired), and gives up after two claims', async () => {
    const run = await enqueue('echo');
    const now = new Date();
    const [claimed] = await app.runner.repo.claim(now, 1, () => new Date(now.getTime() - 1));
    expect(claimed?.id).toBe(run.runId);
    expect(await app.runner.repo.recoverExpired(new Date(), 2)).toBe(1);
    expect((await report(run.runId)).state).toBe('queued');
    await app.runner.repo.claim(new Date(), 1, () => new Date(Date.now() - 1));
    await app.runner.repo.recoverExpired(new Date(), 2);
    const given = await report(run.runId);
    expect(given.state).toBe('error');
    expect(given.reason).toMatch(/stopped while running/);
  });

  it('marks a claimed run unavailable when the engine went away before it started', async () => {
    const run = await enqueue('echo');
    fake.setUnavailable('no Docker engine at /var/run/docker.sock (ENOENT)');
    const worker = workerOf();
    await worker.pass();
    await worker.drain();
    const finished = await report(run.runId);
    expect(finished).toMatchObject({
      state: 'unavailable',
      reason: plainRunnerUnavailable('engine-unreachable', 'python'),
    });
    expect(JSON.stringify(finished)).not.toMatch(/docker\.sock|ENOENT/);
  });

  it('prunes finished runs past the retention and keeps queued ones', async () => {
    const finished = await enqueue('echo');
    const worker = workerOf();
    await worker.pass();
    await worker.drain();
    const queued = await enqueue('echo');
    expect(await app.runner.repo.prune(new Date(Date.now() + 60_000))).toBe(1);
    expect(await app.runner.repo.find(finished.runId)).toBeUndefined();
    expect((await app.runner.repo.find(queued.runId))?.state).toBe('queued');
  });

  describe('reference runs (creators)', () => {
    const reference = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/runner/reference',
        headers,
        payload: { language: 'python', code: 'echo', tests: runRequest('echo').tests, limits: {} },
      });

    it("runs the creator's solution, waits for it, and shows the run to that creator only", async () => {
      const creator = creatorToken(app, `creator-${Date.now()}`);
      const loop = workerOf().start();
      const response = await reference(creator);
      await loop.stop();
      expect(response.statusCode).toBe(200);
      const run = response.json() as RunReport;
      expect(run.state).toBe('done');
      expect(run.verdicts.map((v) => v.outcome)).toEqual(['passed', 'failed']);
      const row = await app.runner.repo.find(run.runId);
      expect(row).toMatchObject({ purpose: 'reference', creatorId: expect.stringMatching(/^creator-/) });
      expect((await app.inject({ url: `/api/runner/runs/${run.runId}`, headers: creator })).statusCode).toBe(200);
      const other = creatorToken(app, `other-${Date.now()}`);
      expect((await app.inject({ url: `/api/runner/runs/${run.runId}`, headers: other })).statusCode).toBe(404);
      expect((await app.inject({ url: `/api/runner/runs/${run.runId}` })).statusCode).toBe(401);
    });

    it('refuses a creator past the per-minute limit with 429 (counted in the database)', async () => {
      const creator = creatorToken(app, `busy-${Date.now()}`);
      const loop = workerOf().start();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await reference(creator)).statusCode);
      const calm = await reference(creatorToken(app, `calm-${Date.now()}`));
      await loop.stop();
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(calm.statusCode).toBe(200);
    });
  });

  it("keeps a slot for candidates' runs: reference and grading runs queued first never take it", async () => {
    const job = { language: 'python' as const, code: 'echo', tests: [], limits: { cpuSeconds: 1, memoryMb: 64 } };
    const queue = (purpose: 'reference' | 'grade', i: number) =>
      app.runner.repo.insert(
        {
          id: `${purpose}-${i}-${Date.now()}`,
          purpose,
          creatorId: purpose === 'reference' ? `creator-${i}` : null,
          attemptId: null,
          examId: null,
          questionIndex: null,
          language: 'python',
          job: { ...job, setupScript: '' },
        },
        new Date(Date.now() - 60_000 + i),
      );
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await queue('reference', i)).id);
    for (let i = 0; i < 2; i++) ids.push((await queue('grade', i)).id);
    ids.push((await enqueue('echo')).runId);
    const running = async () =>
      (await app.runner.repo.findMany(ids))
        .filter((r) => r.state === 'running')
        .map((r) => r.purpose)
        .sort();
    fake.gate();
    const worker = workerOf({ concurrency: 3, candidateSlots: 1, referenceSlots: 1 });
    // The candidate's run, queued last, starts at once; grading takes the other two slots before reference runs.
    expect(await worker.pass()).toBe(3);
    expect(await running()).toEqual(['check', 'grade', 'grade']);
    fake.release();
    await worker.drain();
    // Then reference runs, one at a time, still leaving the candidates' slot free.
    fake.gate();
    expect(await worker.pass()).toBe(1);
    expect(await running()).toEqual(['reference']);
    fake.release();
    await worker.drain();
    while ((await worker.pass()) > 0) await worker.drain();
  });

  it('refuses a creator with as many reference runs in flight as allowed: 429 with Retry-After', async () => {
    const creator = `inflight-${Date.now()}`;
    for (let i = 0; i < 2; i++)
      await app.runner.repo.insert(
        {
          id: `${creator}-${i}`,
          purpose: 'reference',
          creatorId: creator,
          attemptId: null,
          examId: null,
          questionIndex: null,
          language: 'python',
          job: {
            language: 'python',
            code: 'loop',
            tests: [],
            limits: { cpuSeconds: 1, memoryMb: 64 },
            setupScript: '',
          },
        },
        new Date(),
      );
    const refused = await app.inject({
      method: 'POST',
      url: '/api/runner/reference',
      headers: creatorToken(app, creator),
      payload: { language: 'python', code: 'echo', tests: runRequest('echo').tests, limits: {} },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().error.message).toMatch(/at once/);
    // Nothing was queued for the refused request.
    const rows = await app.runner.repo.findMany([`${creator}-0`, `${creator}-1`]);
    expect(rows).toHaveLength(2);
  });

  it('stores the job as queued, with the tests and limits the request gave', async () => {
    const run = await enqueue('echo');
    const [row] = await app.runner.repo.findMany([run.runId]);
    expect(row?.job.limits).toEqual({ cpuSeconds: 1, memoryMb: 64 });
    expect(row?.job.tests).toHaveLength(2);
  });
});
