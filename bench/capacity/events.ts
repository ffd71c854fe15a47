// Benchmark of the proctoring events request (POST /api/attempts/{id}/events, issue 39 goal 2): N attempts post a
// batch of two events (focus lost and back, as the taker page's one-second debounce sends them) at a fixed total
// rate, open loop, against results-service as production runs it (node src/server.ts) on the local PostgreSQL.
// Reported: CPU-ms of the service process and of its PostgreSQL backends per 1000 requests (/proc/<pid>/stat utime +
// stime over the window), latency and status counts. --baseline <checkout> measures another checkout's service
// first on the same load, alternating --rounds times (bench/results-service/live.ts does the same for the poll).
// Usage (from the repository root):
//   node bench/capacity/events.ts [--attempts 400] [--rate 100] [--seconds 15] [--warmup 4] [--rounds 1] [--baseline DIR]
// PostgreSQL: BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test); a fresh database is created and dropped.
import os from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { openLoop } from '../lib/open-loop.ts';
import { ROOT, startAttempts, startStack } from '../results-service/harness.ts';

const { values: args } = parseArgs({
  options: {
    attempts: { type: 'string', default: '400' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '1' },
    baseline: { type: 'string', multiple: true },
    port: { type: 'string', default: '4970' },
  },
});
const attemptCount = Number(args.attempts);
const seconds = Number(args.seconds);
const warmupSeconds = Number(args.warmup);
const rate = Number(args.rate);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const port = Number(args.port);

type Harness = { startStack: typeof startStack; startAttempts: typeof startAttempts };
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

async function measure(label: string, root: string) {
  const harness: Harness =
    root === ROOT
      ? { startStack, startAttempts }
      : ((await import(pathToFileURL(resolve(root, 'bench/results-service/harness.ts')).href)) as Harness);
  const stack = await harness.startStack({ adminUrl, port, stubPort: port + 1 });
  try {
    const attempts = await harness.startAttempts(stack.url, attemptCount);
    const pool = new Pool(stack.url, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000 });
    const post = async (i: number, intendedAt: number) => {
      const attempt = attempts[i % attemptCount]!;
      const clientAt = new Date().toISOString();
      try {
        const response = await pool.request({
          method: 'POST',
          path: `/api/attempts/${attempt.id}/events`,
          headers: { authorization: attempt.auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            events: [
              { type: 'focus-lost', detail: 'window blurred', clientAt },
              { type: 'focus-gained', clientAt },
            ],
          }),
        });
        await response.body.text();
        return { status: response.statusCode, latencyMs: performance.now() - intendedAt };
      } catch {
        return { status: 0, latencyMs: performance.now() - intendedAt };
      }
    };
    // Warm-up: JIT, prepared statements, presence rows written.
    await openLoop(Math.round(rate * warmupSeconds), rate, post);
    const cpu0 = stack.serverCpuSeconds();
    const db0 = await stack.postgresCpuSeconds();
    const load = os.loadavg()[0]!;
    const started = performance.now();
    const outcomes = await openLoop(Math.round(rate * seconds), rate, (i, at) => post(i + attemptCount, at));
    const wall = (performance.now() - started) / 1000;
    // Presence writes flushed after the window still belong to it: wait one flush and a bit.
    await new Promise((r) => setTimeout(r, 2500));
    const cpu1 = stack.serverCpuSeconds();
    const db1 = await stack.postgresCpuSeconds();
    await pool.close();
    const latencies = outcomes.map((o) => o.latencyMs).sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const o of outcomes) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    const requests = outcomes.length;
    const result = {
      label,
      requests,
      rps: round(requests / wall, 1),
      statuses,
      serviceCpuMsPer1000: round(((cpu1 - cpu0) * 1e6) / requests, 0),
      databaseCpuMsPer1000: round(((db1 - db0) * 1e6) / requests, 0),
      p50: round(percentile(latencies, 50), 1),
      p99: round(percentile(latencies, 99), 1),
      loadavg1: round(load),
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await stack.stop();
  }
}

const rounds = Number(args.rounds);
const runs: Awaited<ReturnType<typeof measure>>[] = [];
for (let r = 0; r < rounds; r++) {
  // The first --baseline is the one the ratios are against; more are measured alongside (e.g. an earlier step).
  for (const [i, dir] of (args.baseline ?? []).entries())
    runs.push(await measure(i === 0 ? 'baseline' : `baseline ${i + 1} (${dir})`, resolve(dir)));
  runs.push(await measure('current', ROOT));
}
const mean = (label: string, key: 'serviceCpuMsPer1000' | 'databaseCpuMsPer1000') => {
  const of = runs.filter((run) => run.label === label);
  return of.length ? round(of.reduce((sum, run) => sum + run[key], 0) / of.length, 0) : null;
};
const current = {
  service: mean('current', 'serviceCpuMsPer1000')!,
  database: mean('current', 'databaseCpuMsPer1000')!,
};
const baseline = args.baseline?.length
  ? { service: mean('baseline', 'serviceCpuMsPer1000')!, database: mean('baseline', 'databaseCpuMsPer1000')! }
  : null;
console.log(
  `BENCH_RESULT ${JSON.stringify({
    attempts: attemptCount,
    requestsPerSecond: rate,
    seconds,
    rounds,
    current,
    baseline,
    serviceRatio: baseline ? round(current.service / baseline.service) : null,
    databaseRatio: baseline ? round(current.database / baseline.database) : null,
    runs,
    loadavg: os.loadavg().map((n) => round(n)),
  })}`,
);
