// Benchmark of results-service on the real local PostgreSQL:
//   1. answer saves: PUT /api/attempts/{id}/answers/{i} at a fixed arrival rate — goal 1,500/s, p99 <= 50 ms, no errors;
//   2. submissions: 10,000 POST /api/attempts/{id}/submit arriving within 10 s — goal all acknowledged, p99 <= 1 s,
//      and 10,000 result rows counted in the database afterwards.
// Usage (from the repository root):
//   node bench/results-service/run.ts [--attempts 10000] [--save-rate 1500] [--save-seconds 30] [--submit-rate 1000]
//                                     [--generator open|autocannon] [--pool-size N]
// --pool-size sets the service's DATABASE_POOL_SIZE; without it the service runs with its default (10).
// --generator open (default): requests arrive evenly at the rate and latency counts from each one's planned
// start (bench/lib/open-loop.ts). --generator autocannon: autocannon's rate limit, which fires each
// connection's per-second quota back to back at the top of every second (the earlier tables used it).
// PostgreSQL: BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test); a fresh database is created and dropped.
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuShares, cpuSnapshot } from '../lib/machine-cpu.ts';
import { createClient, openLoop, summarizeOutcomes, type Outcome, type PlannedRequest } from '../lib/open-loop.ts';
import { QUESTION_COUNT, startAttempts, startStack } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    attempts: { type: 'string', default: '10000' },
    'save-rate': { type: 'string', default: '1500' },
    'save-seconds': { type: 'string', default: '30' },
    'submit-rate': { type: 'string', default: '1000' },
    'pool-size': { type: 'string' },
    generator: { type: 'string', default: 'open' },
  },
});
const attemptCount = Number(args.attempts);
const saveRate = Number(args['save-rate']);
const saveSeconds = Number(args['save-seconds']);
const submitRate = Number(args['submit-rate']);
const generator = args.generator;
if (generator !== 'open' && generator !== 'autocannon') throw new Error('--generator must be open or autocannon');

type Phase = {
  count: number;
  rate: number;
  connections: number;
  build: (index: number) => PlannedRequest;
  ok: (outcome: Pick<Outcome, 'status' | 'body'>) => boolean;
};
type Summary = ReturnType<typeof summarizeOutcomes> & { wallSeconds: number };

/** Sends `phase.count` requests at `phase.rate` per second with the chosen generator. */
async function runPhase(url: string, phase: Phase): Promise<Summary> {
  const started = performance.now();
  if (generator === 'open') {
    const client = createClient(url, phase.connections);
    const outcomes = await openLoop(phase.count, phase.rate, (i, at) => client.send(phase.build(i), at));
    await client.close();
    const wallSeconds = (performance.now() - started) / 1000;
    return { ...summarizeOutcomes(outcomes, phase.ok, wallSeconds), wallSeconds: Number(wallSeconds.toFixed(2)) };
  }
  let ok = 0;
  let next = 0;
  const result = await autocannon({
    url,
    connections: autocannonConnections(phase.count, phase.rate, phase.connections),
    amount: phase.count,
    overallRate: phase.rate,
    timeout: 30,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => ({ ...req, ...phase.build(next++) }),
        onResponse: (status: number, body: string) => {
          if (phase.ok({ status, body })) ok++;
        },
      },
    ],
  });
  const wallSeconds = (performance.now() - started) / 1000;
  return {
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    firstError: undefined,
    rps: Math.round(result.requests.total / wallSeconds),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    wallSeconds: Number(wallSeconds.toFixed(2)),
  };
}

const perRequestMs = (cpuSeconds: number, summary: Summary) =>
  Number(((cpuSeconds * 1000) / summary.requests).toFixed(2));

/** CPU used during a phase: per request by the service, its PostgreSQL backends and this client, and the machine's shares. */
async function cpuMeter(stack: { serverCpuSeconds(): number; postgresCpuSeconds(): Promise<number> }) {
  const server = stack.serverCpuSeconds();
  const postgres = await stack.postgresCpuSeconds();
  const client = process.cpuUsage();
  const machine = cpuSnapshot();
  return async (summary: Summary) => {
    const clientUsed = process.cpuUsage(client);
    return {
      serverCpuMsPerRequest: perRequestMs(stack.serverCpuSeconds() - server, summary),
      postgresCpuMsPerRequest: perRequestMs((await stack.postgresCpuSeconds()) - postgres, summary),
      clientCpuMsPerRequest: perRequestMs((clientUsed.user + clientUsed.system) / 1e6, summary),
      machine: cpuShares(machine, cpuSnapshot()),
    };
  };
}

const stack = await startStack({
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test',
  port: 14102,
  stubPort: 14101,
  ...(args['pool-size'] ? { poolSize: Number(args['pool-size']) } : {}),
});
try {
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  );
  const startedAt = performance.now();
  const startCpu = stack.serverCpuSeconds();
  const attempts = await startAttempts(stack.url, attemptCount);
  const startMs = ((stack.serverCpuSeconds() - startCpu) * 1000) / attempts.length;
  console.log(
    `started ${attempts.length} attempts in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (service CPU ${startMs.toFixed(2)} ms each)`,
  );
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  // Saves: every request writes a new seq, round-robin over attempts and questions, so every save applies.
  let counter = 0;
  const saves = (seconds: number): Phase => ({
    count: seconds * saveRate,
    rate: saveRate,
    connections: 64,
    build: () => {
      const n = counter++;
      const attempt = attempts[n % attempts.length]!;
      const question = Math.floor(n / attempts.length) % QUESTION_COUNT;
      return {
        method: 'PUT',
        path: `/api/attempts/${attempt.id}/answers/${question}`,
        headers: { 'content-type': 'application/json', authorization: attempt.auth },
        body: JSON.stringify({ answer: question % 2 === 0 ? 'B' : `photosynthesis ${n}`, seq: n + 1 }),
      };
    },
    ok: (o) => o.status === 200 && o.body.includes('"applied":true'),
  });
  await runPhase(stack.url, saves(5)); // warm-up (JIT, connection pools); not reported
  const sentBefore = counter;
  const saveCpu = await cpuMeter(stack);
  const saveRun = await runPhase(stack.url, saves(saveSeconds));
  const saveSummary = { ...saveRun, ...(await saveCpu(saveRun)) };
  const stored = (await stack.sql`select count(*)::int as n from results_service.answers`)[0]!.n as number;
  console.log('saves', {
    generator,
    target: `${saveRate}/s for ${saveSeconds} s`,
    ...saveSummary,
    sent: counter - sentBefore,
    answerRowsStored: stored,
  });

  // Submissions: every attempt submits once, arriving at submitRate per second.
  const resultIds = new Set<string>();
  const submitCpu = await cpuMeter(stack);
  const submits = await runPhase(stack.url, {
    count: attempts.length,
    rate: submitRate,
    connections: 256,
    build: (i) => ({
      method: 'POST',
      path: `/api/attempts/${attempts[i % attempts.length]!.id}/submit`,
      headers: { authorization: attempts[i % attempts.length]!.auth },
    }),
    ok: (o) => {
      if (o.status !== 200) return false;
      resultIds.add((JSON.parse(o.body) as { resultId: string }).resultId);
      return true;
    },
  });
  const counts = (
    await stack.sql`select (select count(*)::int from results_service.results) as results,
                           (select count(*)::int from results_service.attempts where submitted_at is not null) as submitted`
  )[0]!;
  console.log('submissions', {
    generator,
    target: `${attempts.length} at ${submitRate}/s`,
    ...submits,
    distinctResultIds: resultIds.size,
    ...(await submitCpu(submits)),
    resultRows: counts.results,
    submittedAttempts: counts.submitted,
  });
  const tables =
    await stack.sql`select relname, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where schemaname = 'results_service' order by relname`;
  console.log(
    'updates (HOT = without index writes):',
    tables.map((t) => `${t.relname} ${t.n_tup_hot_upd}/${t.n_tup_upd}`).join(', '),
  );
  console.log(
    `load average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await stack.stop();
}

// autocannon gives each connection a whole-number share of the rate and of the amount. With 256
// connections, 1,000/s splits into 3s and 4s and 10,000 into 39s and 40s, so the connections that send
// 3 a second need 13 s for their 39: the run measured autocannon's split, not the service. Use the
// largest connection count up to `max` that divides both, so every connection sends the same share.
function autocannonConnections(amount: number, rate: number, max: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const common = gcd(amount, rate);
  for (let n = Math.min(max, common); n > 1; n--) if (common % n === 0) return n;
  return 1;
}
