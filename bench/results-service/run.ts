// Benchmark of results-service on the real local PostgreSQL (issue 3):
//   1. answer saves: PUT /api/attempts/{id}/answers/{i} at a fixed arrival rate — goal 1,500/s, p99 <= 50 ms, no errors;
//   2. submissions: 10,000 POST /api/attempts/{id}/submit arriving within 10 s — goal all acknowledged, p99 <= 1 s,
//      and 10,000 result rows counted in the database afterwards.
// Usage (from the repository root):
//   node bench/results-service/run.ts [--attempts 10000] [--save-rate 1500] [--save-seconds 30] [--submit-rate 1000]
// PostgreSQL: BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test); a fresh database is created and dropped.
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { QUESTION_COUNT, startAttempts, startStack } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    attempts: { type: 'string', default: '10000' },
    'save-rate': { type: 'string', default: '1500' },
    'save-seconds': { type: 'string', default: '30' },
    'submit-rate': { type: 'string', default: '1000' },
    'pool-size': { type: 'string', default: '20' },
  },
});
const attemptCount = Number(args.attempts);
const saveRate = Number(args['save-rate']);
const saveSeconds = Number(args['save-seconds']);
const submitRate = Number(args['submit-rate']);

type Summary = { requests: number; ok: number; non2xx: number; errors: number; timeouts: number; rps: number; p50: number; p90: number; p99: number; max: number };
function summarize(result: autocannon.Result, ok: number): Summary {
  return {
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    rps: Math.round(result.requests.total / (result.duration || 1)),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

const perRequestMs = (cpuSeconds: number, result: autocannon.Result) => Number(((cpuSeconds * 1000) / result.requests.total).toFixed(2));

const stack = await startStack({
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test',
  port: 14102,
  stubPort: 14101,
  poolSize: Number(args['pool-size']),
});
try {
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`);
  const startedAt = performance.now();
  const startCpu = stack.serverCpuSeconds();
  const attempts = await startAttempts(stack.url, attemptCount);
  const startMs = ((stack.serverCpuSeconds() - startCpu) * 1000) / attempts.length;
  console.log(`started ${attempts.length} attempts in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (service CPU ${startMs.toFixed(2)} ms each)`);
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  // Saves: every request writes a new seq, round-robin over attempts and questions, so every save applies.
  let counter = 0;
  let applied = 0;
  const saveRun = (duration: number, rate: number) =>
    autocannon({
      url: stack.url,
      connections: 64,
      duration,
      overallRate: rate,
      requests: [
        {
          method: 'PUT',
          setupRequest: (req: autocannon.Request) => {
            const n = counter++;
            const attempt = attempts[n % attempts.length]!;
            const question = Math.floor(n / attempts.length) % QUESTION_COUNT;
            return {
              ...req,
              path: `/api/attempts/${attempt.id}/answers/${question}`,
              headers: { 'content-type': 'application/json', authorization: attempt.auth },
              body: JSON.stringify({ answer: question % 2 === 0 ? 'B' : `photosynthesis ${n}`, seq: n + 1 }),
            };
          },
          onResponse: (status: number, body: string) => {
            if (status === 200 && body.includes('"applied":true')) applied++;
          },
        },
      ],
    });
  await saveRun(5, saveRate); // warm-up (JIT, connection pools); not reported
  const sentBefore = counter;
  applied = 0;
  let cpuBefore = stack.serverCpuSeconds();
  let pgCpuBefore = await stack.postgresCpuSeconds();
  const saves = await saveRun(saveSeconds, saveRate);
  const saveSummary = {
    ...summarize(saves, applied),
    serverCpuMsPerRequest: perRequestMs(stack.serverCpuSeconds() - cpuBefore, saves),
    postgresCpuMsPerRequest: perRequestMs((await stack.postgresCpuSeconds()) - pgCpuBefore, saves),
  };
  const stored = (await stack.sql`select count(*)::int as n from results_service.answers`)[0]!.n as number;
  console.log('saves', { target: `${saveRate}/s for ${saveSeconds} s`, ...saveSummary, sent: counter - sentBefore, answerRowsStored: stored });

  // Submissions: every attempt submits once, arriving at submitRate per second.
  let next = 0;
  const resultIds = new Set<string>();
  cpuBefore = stack.serverCpuSeconds();
  pgCpuBefore = await stack.postgresCpuSeconds();
  const submits = await autocannon({
    url: stack.url,
    connections: submitConnections(attempts.length, submitRate),
    amount: attempts.length,
    overallRate: submitRate,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: autocannon.Request) => {
          const attempt = attempts[next++ % attempts.length]!;
          return { ...req, path: `/api/attempts/${attempt.id}/submit`, headers: { authorization: attempt.auth } };
        },
        onResponse: (status: number, body: string) => {
          if (status === 200) resultIds.add((JSON.parse(body) as { resultId: string }).resultId);
        },
      },
    ],
  });
  const counts = (
    await stack.sql`select (select count(*)::int from results_service.results) as results,
                           (select count(*)::int from results_service.attempts where submitted_at is not null) as submitted`
  )[0]!;
  console.log('submissions', {
    target: `${attempts.length} at ${submitRate}/s`,
    ...summarize(submits, resultIds.size),
    serverCpuMsPerRequest: perRequestMs(stack.serverCpuSeconds() - cpuBefore, submits),
    postgresCpuMsPerRequest: perRequestMs((await stack.postgresCpuSeconds()) - pgCpuBefore, submits),
    wallSeconds: submits.duration,
    resultRows: counts.results,
    submittedAttempts: counts.submitted,
  });
  const tables = await stack.sql`select relname, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where schemaname = 'results_service' order by relname`;
  console.log('updates (HOT = without index writes):', tables.map((t) => `${t.relname} ${t.n_tup_hot_upd}/${t.n_tup_upd}`).join(', '));
  console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  await stack.stop();
}

// autocannon gives each connection a whole-number share of the rate and of the amount. With 256
// connections, 1,000/s splits into 3s and 4s and 10,000 into 39s and 40s, so the connections that send
// 3 a second need 13 s for their 39: the run measured autocannon's split, not the service. Use the
// largest connection count up to 256 that divides both, so every connection sends the same share.
function submitConnections(amount: number, rate: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const common = gcd(amount, rate);
  for (let n = Math.min(256, common); n > 1; n--) if (common % n === 0) return n;
  return 1;
}
