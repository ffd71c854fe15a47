// A deadline burst of coding submissions through the real path: results-service (node src/server.ts) writes
// each result and its test-grading outbox row, its grading job hands the runs to a real orchestrator, the
// orchestrator's worker runs them in fresh containers on the private Docker engine, and the job writes the
// verdicts back into the results. Meanwhile other candidates keep saving answers.
// Goals (issue 13): `--submissions` (100) × 5 tests all graded, none lost, drained in ≤ 2 min; the runner never
// above RUNNER_CONCURRENCY containers; answer saves p99 ≤ 100 ms during the burst. The same saves are measured
// first with no burst (the anchor), so the burst's cost reads as a ratio on this shared machine.
//   [BENCH_DATABASE_URL=postgres://…] node bench/coding-deadline.ts [--submissions 100] [--save-rate 100] [--concurrency 2]
import { parseArgs } from 'node:util';
import { TEST_SECRETS } from '../packages/server-kit/src/testing.ts';
import { createClient, openLoop, summarizeOutcomes, type Outcome } from './lib/open-loop.ts';
import { startAttempts, startStack } from './results-service/harness.ts';
import { engineWithImages, maxSampler, startOrchestrator } from './runner-common.ts';

const { values } = parseArgs({
  options: {
    submissions: { type: 'string', default: '100' },
    writers: { type: 'string', default: '40' },
    'save-rate': { type: 'string', default: '100' },
    'save-seconds': { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '2' },
  },
});
const submissions = Number(values.submissions);
const writers = Number(values.writers);
const saveRate = Number(values['save-rate']);
const saveSeconds = Number(values['save-seconds']);
const concurrency = Number(values.concurrency);

/** One Python question, five tests (two visible), a point each: the sum of two numbers. */
const TESTS = [
  ['1 2', '3'],
  ['10 20', '30'],
  ['100 250', '350'],
  ['-5 3', '-2'],
  ['123456 654321', '777777'],
].map(([stdin, expected], i) => ({ id: `t${i}`, stdin, expected, visible: i < 2, points: 1 }));
const QUESTION = { id: 'q0', type: 'coding', title: 'Sum', language: 'python', tests: TESTS, content: '' };
const RIGHT = 'a, b = map(int, input().split())\nprint(a + b)\n';
/** Right except for negative numbers: 4 of 5. */
const PARTLY = 'a, b = map(int, input().split())\nprint(abs(a) + abs(b))\n';

const engine = await engineWithImages(['python']);
const orchestrator = await startOrchestrator({ socketPath: engine.socketPath, concurrency, port: 4960 });
const stack = await startStack({
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test',
  port: 4970,
  stubPort: 4971,
  exam: { questions: [QUESTION] },
  internalToken: TEST_SECRETS.INTERNAL_TOKEN,
  env: { WORKSPACE_ORCHESTRATOR_URL: orchestrator.base, TEST_GRADING_INTERVAL_SECONDS: '1' },
});
try {
  const attempts = await startAttempts(stack.url, submissions + writers);
  const burst = attempts.slice(0, submissions);
  const writing = attempts.slice(submissions);
  // Every submitting candidate has saved code; a tenth of them a partly right one.
  await Promise.all(
    burst.map(async (a, i) => {
      const response = await fetch(`${stack.url}/api/attempts/${a.id}/answers/0`, {
        method: 'PUT',
        headers: { authorization: a.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ answer: i % 10 === 0 ? PARTLY : RIGHT, seq: 1 }),
      });
      if (response.status !== 200) throw new Error(`save ${i}: ${response.status} ${await response.text()}`);
    }),
  );

  let seq = 1;
  const saves = async () => {
    const client = createClient(stack.url, 32);
    const started = performance.now();
    const outcomes = await openLoop(saveRate * saveSeconds, saveRate, (i, at) => {
      const a = writing[i % writing.length]!;
      seq += 1;
      return client.send(
        {
          method: 'PUT',
          path: `/api/attempts/${a.id}/answers/0`,
          headers: { authorization: a.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ answer: `print(${seq})\n`, seq }),
        },
        at,
      );
    });
    await client.close();
    return summarizeOutcomes(outcomes, (o: Outcome) => o.status === 200, (performance.now() - started) / 1000);
  };

  const anchor = await saves();
  console.log('saves, no burst (anchor)', anchor);

  const sampler = maxSampler(() => orchestrator.containers());
  const started = performance.now();
  const during = saves();
  const submitted = await Promise.all(
    burst.map(async (a) => {
      const response = await fetch(`${stack.url}/api/attempts/${a.id}/submit`, {
        method: 'POST',
        headers: { authorization: a.auth },
      });
      return response.status;
    }),
  );
  const submitMs = performance.now() - started;
  let drainedMs = Number.NaN;
  let counts = { done: 0, open: 0, other: 0 };
  const deadline = Date.now() + 5 * 60_000;
  while (Date.now() < deadline) {
    const rows = await stack.sql<{ state: string; n: number }[]>`
      select state, count(*)::int as n from results_service.test_gradings group by state`;
    const n = (state: string) => rows.find((r) => r.state === state)?.n ?? 0;
    counts = { done: n('done'), open: n('queued') + n('running'), other: n('unavailable') + n('error') };
    if (counts.done + counts.other >= submissions) {
      drainedMs = performance.now() - started;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const duringSaves = await during;
  const maxContainers = await sampler.stop();

  const scores = await stack.sql<{ score: number; n: number }[]>`
    select score::float as score, count(*)::int as n from results_service.results group by score order by score`;
  const graded = await stack.sql<{ n: number }[]>`
    select count(*)::int as n from results_service.results where status = 'graded'`;
  const burstSummary = {
    submissions,
    acknowledged: submitted.filter((s) => s === 200).length,
    submitSeconds: Number((submitMs / 1000).toFixed(2)),
    drainedSeconds: Number((drainedMs / 1000).toFixed(1)),
    testGradings: counts,
    resultsGraded: graded[0]!.n,
    scores: Object.fromEntries(scores.map((s) => [s.score, s.n])),
    maxRunnerContainers: maxContainers,
    runnerConcurrency: concurrency,
  };
  console.log('deadline burst', burstSummary);
  console.log('saves during the burst', duringSaves, {
    p99VsAnchor: Number((duringSaves.p99 / anchor.p99).toFixed(2)),
  });
  // One machine-readable line for bench/run.ts.
  console.log(
    `BENCH_RESULT ${JSON.stringify({ burst: burstSummary, savesAnchor: { p99: anchor.p99, errors: anchor.errors }, savesDuring: { p99: duringSaves.p99, errors: duringSaves.errors } })}`,
  );
} finally {
  await stack.stop();
  await orchestrator.stop();
}
