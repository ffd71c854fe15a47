import type { RunReport } from '@exam/domain/coding';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, creatorToken } from '../../testing/app.ts';
import { testRunnerWorker } from '../../testing/runner.ts';

const socketPath = inject('dockerSocket');
const instance = inject('workspaceInstance');
const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };

/** Three tests of an endless loop at 3 s of CPU each: a reference run that holds its slot for about 10 s. */
const LOOPS = {
  language: 'python',
  code: 'while True:\n    pass',
  tests: [0, 1, 2].map((i) => ({ id: `loop${i}`, stdin: '', expected: 'never', visible: true, points: 1 })),
  limits: { cpuSeconds: 3, memoryMb: 64 },
};

/**
 * The runner's slots on the real Docker engine (production defaults: two slots per replica, one kept for
 * candidates, one for reference runs): creators' reference runs of endless loops never make a candidate's
 * "Run tests" wait for them.
 */
describe.skipIf(!socketPath)("the runner's slots on the real engine", () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let stopWorker: () => Promise<void>;

  beforeAll(async () => {
    app = await buildTestApp({ socketPath: socketPath!, instance });
    const worker = testRunnerWorker(app, { concurrency: 2, candidateSlots: 1, referenceSlots: 1 });
    const loop = worker.start();
    stopWorker = async () => {
      await loop.stop();
      await worker.drain();
    };
  });
  afterAll(async () => {
    await stopWorker?.();
    await app?.close();
  });

  it("starts a candidate's run at once while reference runs of endless loops hold the other slots", async () => {
    const creator = creatorToken(app, `loops-${Date.now()}`);
    let settled = 0;
    const references = [0, 1].map(() =>
      app
        .inject({ method: 'POST', url: '/api/runner/reference', headers: creator, payload: LOOPS })
        .finally(() => settled++),
    );
    // Wait until a reference run's container is executing.
    const started = Date.now();
    while ((await app.runner.engine.countContainers()) === 0 && Date.now() - started < 20_000)
      await new Promise((r) => setTimeout(r, 100));
    expect(await app.runner.engine.countContainers()).toBeGreaterThan(0);

    const queued = await app.inject({
      method: 'POST',
      url: '/internal/runs',
      headers: internal,
      payload: {
        purpose: 'check',
        language: 'python',
        code: 'print(input())',
        tests: [{ id: 't', stdin: 'hi', expected: 'hi', visible: true }],
        limits: { cpuSeconds: 1, memoryMb: 64 },
      },
    });
    expect(queued.statusCode).toBe(202);
    const runId = (queued.json() as RunReport).runId;
    // Held at most 8 s: on a runner shared first come, first served it would wait for a loop run (~10 s).
    const report = (
      await app.inject({ url: `/internal/runs/${runId}?waitMs=8000`, headers: internal })
    ).json() as RunReport;
    expect(report.state).toBe('done');
    expect(report.verdicts.map((v) => v.outcome)).toEqual(['passed']);
    // Neither reference run had finished when the candidate's did.
    expect(settled).toBe(0);

    const answers = await Promise.all(references);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    for (const answer of answers)
      expect((answer.json() as RunReport).verdicts.map((v) => v.outcome)).toEqual(['timeout', 'timeout', 'timeout']);
  });
});
