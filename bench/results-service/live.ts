// Benchmark of the candidate's live poll (GET /api/attempts/{id}/live, issue 39 goal 2): N attempts each poll every
// LIVE_POLL_MS (4 s, as the taker page does), open loop, against results-service as production runs it
// (node src/server.ts) on the local PostgreSQL. Every poll is an accepted candidate request, so it also records
// presence (modules/live/presence.ts), which this measures with it. The exam has a few announcements, as a live
// exam would. Reported: CPU-ms of the service process and of its PostgreSQL backends per 1000 polls (from
// /proc/<pid>/stat utime + stime over the measured window), the polls' latency and status counts.
// Like a browser's HTTP cache, each simulated page keeps the last ETag it got and sends it as If-None-Match.
// --baseline <checkout> runs the same load first against another checkout's results-service (e.g. a worktree of
// main, with its dependencies installed), then this one, alternating --rounds times, so both are measured on the
// same machine in the same run and the ratio is theirs (more --baseline checkouts are measured alongside).
// Usage (from the repository root):
//   node bench/results-service/live.ts [--attempts 400] [--seconds 15] [--warmup 4] [--rounds 1] [--baseline DIR]
// PostgreSQL: BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test); a fresh database is created and dropped.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { openLoop } from '../lib/open-loop.ts';
import { ROOT, startAttempts, startStack } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    attempts: { type: 'string', default: '400' },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '1' },
    baseline: { type: 'string', multiple: true },
    port: { type: 'string', default: '4970' },
  },
});
const POLL_MS = 4000; // LIVE_POLL_MS in @exam/domain/live
const attemptCount = Number(args.attempts);
const seconds = Number(args.seconds);
const warmupSeconds = Number(args.warmup);
const rate = (attemptCount * 1000) / POLL_MS;
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
    // Three announcements after every start: each poll carries them.
    const now = Date.now();
    for (let i = 0; i < 3; i++)
      await stack.sql`insert into results_service.announcements (id, exam_id, owner_id, text, created_by, created_at)
        values (${randomUUID()}, 'bench-exam', 'bench-owner', ${`Announcement ${i + 1}: please check question ${i + 2}.`},
                'owner@example.com', ${new Date(now + i)})`;
    const pool = new Pool(stack.url, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000 });
    const etags: (string | undefined)[] = new Array(attemptCount);
    const poll = async (i: number, intendedAt: number) => {
      const attempt = attempts[i % attemptCount]!;
      const headers: Record<string, string> = { authorization: attempt.auth, accept: 'application/json' };
      const etag = etags[i % attemptCount];
      if (etag) headers['if-none-match'] = etag;
      try {
        const response = await pool.request({ method: 'GET', path: `/api/attempts/${attempt.id}/live`, headers });
        await response.body.text();
        const tag = response.headers.etag;
        if (typeof tag === 'string') etags[i % attemptCount] = tag;
        return { status: response.statusCode, latencyMs: performance.now() - intendedAt };
      } catch {
        return { status: 0, latencyMs: performance.now() - intendedAt };
      }
    };
    // Warm-up: every attempt polls once at least (JIT, prepared statements, presence rows written).
    await openLoop(Math.round(rate * warmupSeconds), rate, poll);
    const cpu0 = stack.serverCpuSeconds();
    const db0 = await stack.postgresCpuSeconds();
    const load = os.loadavg()[0]!;
    const started = performance.now();
    const outcomes = await openLoop(Math.round(rate * seconds), rate, (i, at) => poll(i + attemptCount, at));
    const wall = (performance.now() - started) / 1000;
    // Presence writes flushed after the window still belong to it: wait one flush and a bit.
    await new Promise((r) => setTimeout(r, 2500));
    const cpu1 = stack.serverCpuSeconds();
    const db1 = await stack.postgresCpuSeconds();
    await pool.close();
    const latencies = outcomes.map((o) => o.latencyMs).sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const o of outcomes) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    const polls = outcomes.length;
    const result = {
      label,
      polls,
      rps: round(polls / wall, 1),
      statuses,
      serviceCpuMsPer1000: round(((cpu1 - cpu0) * 1e6) / polls, 0),
      databaseCpuMsPer1000: round(((db1 - db0) * 1e6) / polls, 0),
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
    pollsPerSecond: rate,
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
