// A burst of code runs: 100 runs of 5 tests each queued at once through POST /internal/runs, then
// drained by the orchestrator's worker. Goals (bench/README.md): drained within 2 minutes, never more
// runner containers at once than RUNNER_CONCURRENCY (the engine's container list, sampled every 25 ms,
// filtered by the runner's labels), none lost (every run ends `done` with 5 verdicts).
//   [BENCH_DATABASE_URL=postgres://…] node bench/runner-burst.ts [--runs 100] [--tests 5] [--concurrency 2] [--language python]
import { parseArgs } from 'node:util';
import { engineWithImages, enqueue, internal, maxSampler, startOrchestrator, type Report } from './runner-common.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    tests: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '2' },
    language: { type: 'string', default: 'python' },
  },
});
const runs = Number(values.runs);
const concurrency = Number(values.concurrency);

const PROGRAM: Record<string, string> = {
  python: 'n = int(input())\nprint(sum(range(n)))\n',
  javascript: 'const n = Number(require("fs").readFileSync(0, "utf8"));\nconsole.log(n * (n - 1) / 2);\n',
};

const engine = await engineWithImages([values.language]);
const orchestrator = await startOrchestrator({ socketPath: engine.socketPath, concurrency, port: 4950 });
try {
  const tests = Array.from({ length: Number(values.tests) }, (_, i) => {
    const n = 1000 * (i + 1);
    return { id: `t${i}`, stdin: String(n), expected: String((n * (n - 1)) / 2) };
  });
  const sampler = maxSampler(() => orchestrator.containers());
  const started = performance.now();
  const queued = await Promise.all(
    Array.from({ length: runs }, () =>
      enqueue(orchestrator.base, {
        purpose: 'grade',
        language: values.language,
        code: PROGRAM[values.language],
        tests,
        limits: { cpuSeconds: 2, memoryMb: 128 },
      }),
    ),
  );
  const queuedMs = performance.now() - started;
  const ids = queued.map((r) => r.runId);
  let reports: Report[] = [];
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    const response = await fetch(`${orchestrator.base}/internal/runs/lookup`, {
      method: 'POST',
      headers: internal,
      body: JSON.stringify({ ids }),
    });
    reports = ((await response.json()) as { runs: Report[] }).runs;
    if (reports.every((r) => r.state !== 'queued' && r.state !== 'running') || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const drainedMs = performance.now() - started;
  const maxContainers = await sampler.stop();
  const done = reports.filter((r) => r.state === 'done' && r.verdicts.length === tests.length);
  const passed = done.filter((r) => r.verdicts.every((v) => v.outcome === 'passed'));
  console.log(
    [
      `runs ${runs} × ${tests.length} tests (${values.language}), RUNNER_CONCURRENCY=${concurrency}`,
      `queued in ${queuedMs.toFixed(0)} ms, drained in ${(drainedMs / 1000).toFixed(1)} s`,
      `reports ${reports.length}/${runs}, done ${done.length}, all tests passed ${passed.length}, other states: ${JSON.stringify(
        reports.filter((r) => r.state !== 'done').map((r) => r.state),
      )}`,
      `max runner containers at once: ${maxContainers} (limit ${concurrency})`,
    ].join('\n'),
  );
  // One machine-readable line for bench/run.ts.
  console.log(
    `BENCH_RESULT ${JSON.stringify({ runs, tests: tests.length, concurrency, drainedSeconds: Number((drainedMs / 1000).toFixed(1)), done: done.length, passed: passed.length, maxContainers })}`,
  );
  if (maxContainers > concurrency || done.length !== runs) process.exitCode = 1;
} finally {
  await orchestrator.stop();
}
