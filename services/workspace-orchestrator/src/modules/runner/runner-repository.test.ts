import type { RunReport } from '@exam/domain/coding';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, NO_ENGINE_SOCKET } from '../../testing/app.ts';
import { fakeRunnerEngine, testRunnerWorker } from '../../testing/runner.ts';

const socketPath = inject('dockerSocket');
const instance = inject('workspaceInstance');
const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };

type File = { path: string; content: string };

const runBody = (code: string, files: File[] | undefined, tests = [{ stdin: '', expected: '' }]) => ({
  purpose: 'grade',
  language: 'python',
  code,
  tests: tests.map((t, i) => ({ id: `t${i}`, points: 1, ...t })),
  limits: { cpuSeconds: 2, memoryMb: 64 },
  attemptId: 'attempt-repo',
  questionIndex: 0,
  ...(files ? { files } : {}),
});

describe("an agentic task's repository on POST /internal/runs (fake engine)", () => {
  const fake = fakeRunnerEngine();
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({ socketPath: NO_ENGINE_SOCKET, instance: 'none', deps: { runnerEngine: fake.engine } });
  });
  afterAll(() => app.close());

  const post = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/internal/runs', headers: internal, payload: body });

  it.each([
    ['a path leaving the repository', [{ path: '../etc/passwd', content: 'x' }], 'files.0.path'],
    ['an absolute path', [{ path: '/work/bundle/nonce', content: 'x' }], 'files.0.path'],
    ['a path the bundle keeps for the tests', [{ path: 'tests/0/stdin', content: 'x' }], 'files.0.path'],
    ['the nonce', [{ path: 'nonce', content: 'x' }], 'files.0.path'],
    [
      'two files with one path',
      [
        { path: 'a.py', content: '' },
        { path: 'a.py', content: '' },
      ],
      'files.1.path',
    ],
    [
      'files over the size cap',
      Array.from({ length: 21 }, (_, i) => ({ path: `big${i}.txt`, content: 'x'.repeat(200_000) })),
      'files',
    ],
    ['too many files', Array.from({ length: 301 }, (_, i) => ({ path: `f${i}.py`, content: '' })), 'files'],
  ])('answers 400 naming the field for %s', async (_case, files, path) => {
    // The refusal comes before the run is stored. (A worker pass here would not prove it: in the PostgreSQL pass the
    // suites share one database, and it would claim, and run on this fake engine, another suite's queued run.)
    const response = await post(runBody('print(1)', files));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('keeps the repository in the job it queues, and a job without one as before', async () => {
    const files = [{ path: 'src/calc.py', content: 'x = 1\n' }];
    const withFiles = (await post(runBody('print(1)', files))).json() as RunReport;
    const without = (await post(runBody('print(1)', undefined))).json() as RunReport;
    expect((await app.runner.repo.find(withFiles.runId))?.job.files).toEqual(files);
    expect((await app.runner.repo.find(without.runId))?.job).not.toHaveProperty('files');
    // Both jobs run to the end on the fake engine. Counted by their own state, not by what the passes claimed: in
    // the PostgreSQL pass the suites share one database, and a pass may also claim another suite's queued run.
    const worker = testRunnerWorker(app);
    const ours = [withFiles.runId, without.runId];
    for (let pass = 0; pass < 20; pass++) {
      const rows = await Promise.all(ours.map((id) => app.runner.repo.find(id)));
      if (rows.every((row) => row?.state === 'done')) break;
      await worker.pass();
      await worker.drain();
    }
    const finished = await Promise.all(ours.map((id) => app.runner.repo.find(id)));
    expect(finished.map((row) => row?.state)).toEqual(['done', 'done']);
  });
});

/**
 * The repository in the real exam/runner-python container: the harness lays it out under the source file, so a
 * driver (the hidden main.py) imports the candidate's modules and reads fixtures from their folders.
 */
describe.skipIf(!socketPath)("an agentic task's repository in the real runner container (python)", () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let stopWorker: () => Promise<void>;
  beforeAll(async () => {
    app = await buildTestApp({ socketPath: socketPath!, instance });
    const worker = testRunnerWorker(app, { concurrency: 2 });
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

  async function run(code: string, files: File[] | undefined, tests: Array<{ stdin: string; expected: string }>) {
    const queued = await app.inject({
      method: 'POST',
      url: '/internal/runs',
      headers: internal,
      payload: runBody(code, files, tests),
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const { runId } = queued.json() as RunReport;
    const response = await app.inject({ url: `/internal/runs/${runId}?waitMs=25000`, headers: internal });
    const report = response.json() as RunReport;
    expect(report.state, JSON.stringify(report)).toBe('done');
    return report;
  }

  it("runs the driver at the root against the candidate's modules and fixtures in nested folders", async () => {
    const driver = [
      'from calc.ops import add',
      "cases = open('fixtures/cases.txt').read().split()",
      'a, b = map(int, input().split())',
      'print(add(a, b), len(cases))',
    ].join('\n');
    const files = [
      { path: 'calc/__init__.py', content: '' },
      { path: 'calc/ops.py', content: 'def add(a, b):\n    return a + b\n' },
      { path: 'fixtures/cases.txt', content: '1 2 3\n' },
    ];
    const report = await run(driver, files, [
      { stdin: '2 3', expected: '5 3' },
      { stdin: '-4 1', expected: '-3 3' },
    ]);
    expect(
      report.verdicts.map((v) => v.outcome),
      JSON.stringify(report.verdicts),
    ).toEqual(['passed', 'passed']);
  });

  it("runs the request's source file, never a repository file of the same name", async () => {
    const files = [{ path: 'main.py', content: "print('the candidate\\'s own main.py')" }];
    const report = await run("print('the driver')", files, [{ stdin: '', expected: 'the driver' }]);
    expect(report.verdicts[0]).toMatchObject({ outcome: 'passed' });
  });

  it('runs an ordinary question, with no repository, as before', async () => {
    const report = await run('import os\nprint(sorted(os.listdir(".")))', undefined, [
      { stdin: '', expected: "['main.py']" },
    ]);
    expect(report.verdicts[0]).toMatchObject({ outcome: 'passed' });
  });
});
