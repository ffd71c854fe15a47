// Benchmark of results-service on the real local PostgreSQL:
//   1. answer saves: PUT /api/attempts/{id}/answers/{i} at a fixed arrival rate — goal 3,000/s, p99 <= 50 ms, no
//      errors — for the service and for the anchor (anchor.ts: bare Fastify + postgres.js, one single-row
//      upsert per save) in the same run;
//   2. the save ramp: both servers, step by step at rising rates (alternating, so both see the same machine),
//      until p99 passes 50 ms or a save fails; the throughput at p99 <= 50 ms is the highest rate that held,
//      and the goal is the service at >= 1.3x the anchor's (issue 19);
//   3. submissions: 10,000 POST /api/attempts/{id}/submit arriving within 10 s — goal all acknowledged, p99 <= 1 s,
//      and 10,000 result rows counted in the database afterwards.
// With --operations (the default; --no-operations leaves it out) phase 1 also runs "service+ops" and
// "anchor+ops": the same saves, each carrying the edit operations a candidate's page sends with it
// (operations.ts; --operations-model typing, the default: the chunks of a simulated hour of fast typing saved at
// every 400 ms pause, about 1.9 operations a save; words: 5–20 coalesced typed words a save, an upper bound), the
// anchor then appending the chunk in the same statement as the answer. The ramp runs --ramp-servers (default with
// operations: service+ops and anchor+ops, the goal's pair). Afterwards the stored operations are counted against
// those sent (each exactly once). After the submissions it waits for every result's process record (computed off
// the submit path, from those operations) and reports how long that took.
// Usage (from the repository root):
//   node bench/results-service/run.ts [--attempts 10000] [--save-rate 3000] [--save-seconds 30] [--submit-rate 1000]
//                                     [--generator open|autocannon] [--pool-size N] [--no-anchor] [--no-submit]
//                                     [--ramp-rates 1000,2000,2500:6000:250,…] [--ramp-seconds 5] [--no-operations]
//                                     [--operations-model typing|words] [--ramp-servers service+ops,anchor+ops]
// --ramp-rates: a list of rates and from:to:step ranges. A step missed (p99 > 50 ms or a failed save) is run once
// more before the server leaves the ramp (the box is shared: one noisy 2 s step should not end it).
// The service's own settings pass through its environment (e.g. SAVE_BATCH_WINDOW_MS=0 turns group commit off).
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
import { pageOperations } from './operations.ts';
import { QUESTION_COUNT, startAnchor, startAttempts, startStack } from './harness.ts';

const { values: args } = parseArgs({
  allowNegative: true,
  options: {
    attempts: { type: 'string', default: '10000' },
    'save-rate': { type: 'string', default: '3000' },
    'save-seconds': { type: 'string', default: '30' },
    'submit-rate': { type: 'string', default: '1000' },
    'pool-size': { type: 'string' },
    generator: { type: 'string', default: 'open' },
    anchor: { type: 'boolean', default: true },
    submit: { type: 'boolean', default: true },
    'ramp-rates': { type: 'string', default: '100,200,400,700,1000,1500,2000,3000,4000,5000,6000,8000,10000' },
    'ramp-seconds': { type: 'string', default: '5' },
    operations: { type: 'boolean', default: true },
    'operations-model': { type: 'string', default: 'typing' },
    'ramp-servers': { type: 'string' },
  },
});
const rampRates = args['ramp-rates'].split(',').flatMap((part) => {
  const [from, to, step] = part.split(':').map(Number);
  if (to === undefined) return [from!];
  return Array.from({ length: Math.floor((to - from!) / step!) + 1 }, (_v, i) => from! + i * step!);
});
const operationsModel = args['operations-model'];
if (operationsModel !== 'typing' && operationsModel !== 'words')
  throw new Error('--operations-model must be typing or words');
const rampServers = (args['ramp-servers'] ?? (args.operations ? 'service+ops,anchor+ops' : 'service,anchor')).split(
  ',',
);
const rampSeconds = Number(args['ramp-seconds']);
const P99_GOAL_MS = 50;
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

/** Server + PostgreSQL CPU per save in a phase, in ms. */
const saveCpu = (phase: { serverCpuMsPerRequest: number; postgresCpuMsPerRequest: number }) =>
  Number((phase.serverCpuMsPerRequest + phase.postgresCpuMsPerRequest).toFixed(2));

const perRequestMs = (cpuSeconds: number, summary: Summary) =>
  Number(((cpuSeconds * 1000) / summary.requests).toFixed(2));

/** CPU used during a phase: per request by the service, its PostgreSQL backends and this client, and the machine's shares. */
async function cpuMeter(stack: {
  serverCpuSeconds(): number;
  postgresCpuSeconds(): Promise<number>;
  commits(): Promise<number>;
}) {
  const server = stack.serverCpuSeconds();
  const postgres = await stack.postgresCpuSeconds();
  const commits = await stack.commits();
  const client = process.cpuUsage();
  const machine = cpuSnapshot();
  return async (summary: Summary) => {
    const clientUsed = process.cpuUsage(client);
    return {
      serverCpuMsPerRequest: perRequestMs(stack.serverCpuSeconds() - server, summary),
      postgresCpuMsPerRequest: perRequestMs((await stack.postgresCpuSeconds()) - postgres, summary),
      clientCpuMsPerRequest: perRequestMs((clientUsed.user + clientUsed.system) / 1e6, summary),
      // Group commit at work: requests per committed transaction (the statistics lag: read a second later).
      requestsPerCommit: await new Promise<number>((done) =>
        setTimeout(
          () =>
            void stack.commits().then((n) => done(Number((summary.requests / Math.max(1, n - commits)).toFixed(1)))),
          1100,
        ),
      ),
      machine: cpuShares(machine, cpuSnapshot()),
    };
  };
}

// What bench/run.ts reads: filled as the phases finish, printed as one `BENCH_RESULT {json}` line at the end.
const benchResult: Record<string, unknown> = {
  saveRate,
  saveSeconds,
  attempts: attemptCount,
  operationsModel,
  rampStepsPerSecond: rampRates,
};

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
  // The anchor gets the same stream (same attempt ids, questions, answers and seqs) without the token; the
  // "service+ops" stream the same again with each save's edit operations (operations.ts).
  let counter = 0;
  // One page model per stream that carries operations: each stream's questions count their own operations.
  const pages = new Map<string, ReturnType<typeof pageOperations>>();
  const pageOf = (name: string) => {
    if (!pages.has(name)) pages.set(name, pageOperations(operationsModel));
    return pages.get(name)!;
  };
  // Every request of a phase is built before it starts: building a save with operations (toCompact, the keys'
  // encoding) in the generator's loop would delay the arrivals on this shared 2-core box and count as the service's
  // latency (it is measured from each request's planned moment).
  const saves = (rate: number, seconds: number, withAuth: boolean, ops?: string): Phase => {
    const page = ops === undefined ? undefined : pageOf(ops);
    const planned = Array.from({ length: Math.round(seconds * rate) }, (): PlannedRequest => {
      const n = counter++;
      const attempt = attempts[n % attempts.length]!;
      const question = Math.floor(n / attempts.length) % QUESTION_COUNT;
      const answer = question % 2 === 0 ? 'B' : `photosynthesis ${n}`;
      return {
        method: 'PUT',
        path: `/api/attempts/${attempt.id}/answers/${question}`,
        headers: {
          'content-type': 'application/json',
          ...(withAuth ? { authorization: attempt.auth } : {}),
        },
        body: JSON.stringify(
          page ? { answer, seq: n + 1, operations: page.next(`${attempt.id}/${question}`, n) } : { answer, seq: n + 1 },
        ),
      };
    });
    return {
      count: planned.length,
      rate,
      connections: 64,
      build: (i) => planned[i]!,
      ok: (o) =>
        o.status === 200 && o.body.includes('"applied":true') && (!page || o.body.includes('"operationsCapped":false')),
    };
  };
  const anchor = args.anchor
    ? await startAnchor({
        databaseUrl: stack.databaseUrl,
        port: 14103,
        ...(args['pool-size'] ? { poolSize: Number(args['pool-size']) } : {}),
      })
    : undefined;
  type Server = { name: string; url: string; auth: boolean; ops?: string; cpu: () => number };
  const servers: Server[] = [
    { name: 'service', url: stack.url, auth: true, cpu: () => stack.serverCpuSeconds() },
    ...(args.operations
      ? [{ name: 'service+ops', url: stack.url, auth: true, ops: 'service', cpu: () => stack.serverCpuSeconds() }]
      : []),
    ...(anchor ? [{ name: 'anchor', url: anchor.url, auth: false, cpu: () => anchor.cpuSeconds() }] : []),
    ...(anchor && args.operations
      ? [{ name: 'anchor+ops', url: anchor.url, auth: false, ops: 'anchor', cpu: () => anchor.cpuSeconds() }]
      : []),
  ];
  try {
    for (const server of servers) {
      // Warm-up (JIT, connection pools); not reported.
      await runPhase(server.url, saves(Math.min(saveRate, 1000), 5, server.auth, server.ops));
    }
    const fixed: Record<string, Summary & Awaited<ReturnType<Awaited<ReturnType<typeof cpuMeter>>>>> = {};
    for (const server of servers) {
      const meter = await cpuMeter({ ...stack, serverCpuSeconds: server.cpu });
      const run = await runPhase(server.url, saves(saveRate, saveSeconds, server.auth, server.ops));
      fixed[server.name] = { ...run, ...(await meter(run)) };
      console.log(`saves (${server.name})`, {
        generator,
        target: `${saveRate}/s for ${saveSeconds} s`,
        ...fixed[server.name],
      });
    }
    const stored = (await stack.sql`select count(*)::int as n from results_service.answers`)[0]!.n as number;
    console.log(`answer rows stored by the service: ${stored}`);

    // The ramp: the same rate for each server in turn; a server leaves the ramp at its first step that misses.
    const held: Record<string, number> = {};
    const steps: Record<string, unknown>[] = [];
    const ramped = servers.filter((s) => rampServers.includes(s.name));
    const climbing = new Set(ramped.map((s) => s.name));
    for (const rate of rampRates) {
      for (const server of ramped) {
        for (let attempt = 1; climbing.has(server.name); attempt++) {
          const meter = await cpuMeter({ ...stack, serverCpuSeconds: server.cpu });
          const run = await runPhase(server.url, saves(rate, rampSeconds, server.auth, server.ops));
          const cpu = await meter(run);
          const pass = run.p99 <= P99_GOAL_MS && run.ok === run.requests && run.errors === 0;
          steps.push({
            server: server.name,
            rate,
            try: attempt,
            pass,
            p50: run.p50,
            p99: run.p99,
            ok: run.ok,
            errors: run.errors + run.non2xx,
            serverCpuMs: cpu.serverCpuMsPerRequest,
            postgresCpuMs: cpu.postgresCpuMsPerRequest,
            perCommit: cpu.requestsPerCommit,
            load1: Number(os.loadavg()[0]!.toFixed(1)),
          });
          if (pass) {
            held[server.name] = rate;
            break;
          }
          if (attempt >= 2) climbing.delete(server.name);
        }
      }
      if (climbing.size === 0) break;
    }
    console.table(steps);
    // The goal's pair: the service's and the anchor's streams on the ramp (with operations by default).
    const serviceName = ramped.find((s) => s.name.startsWith('service'))?.name;
    const anchorName = ramped.find((s) => s.name.startsWith('anchor'))?.name;
    const service = serviceName ? (held[serviceName] ?? 0) : 0;
    const anchorHeld = anchorName ? (held[anchorName] ?? 0) : 0;
    const fixedService = serviceName ? fixed[serviceName] : undefined;
    const fixedAnchor = anchorName ? fixed[anchorName] : undefined;
    const rampSummary = {
      p99GoalMs: P99_GOAL_MS,
      stepSeconds: rampSeconds,
      servers: ramped.map((s) => s.name),
      serviceSavesPerSecond: service,
      ...(anchorName
        ? {
            anchorSavesPerSecond: anchorHeld,
            ratio: anchorHeld ? Number((service / anchorHeld).toFixed(2)) : null,
            // In the fixed-rate phase: throughput and the CPU per save of server + PostgreSQL backends. On a box
            // too busy for the ramp to mean anything, anchor CPU / service CPU is the capacity ratio to expect.
            fixedPhaseRpsRatio:
              fixedAnchor && fixedService ? Number((fixedService.rps / fixedAnchor.rps).toFixed(2)) : null,
            serviceCpuMsPerSave: fixedService ? saveCpu(fixedService) : null,
            anchorCpuMsPerSave: fixedAnchor ? saveCpu(fixedAnchor) : null,
            cpuCapacityRatio:
              fixedAnchor && fixedService ? Number((saveCpu(fixedAnchor) / saveCpu(fixedService)).toFixed(2)) : null,
          }
        : {}),
      ...(args.operations
        ? {
            // The saves carrying edit operations against the service's saves without them (fixed phase).
            serviceWithoutOpsCpuMsPerSave: fixed.service ? saveCpu(fixed.service) : null,
            serviceWithOpsCpuMsPerSave: fixed['service+ops'] ? saveCpu(fixed['service+ops']) : null,
          }
        : {}),
      topRateTried: rampRates.at(-1),
    };
    console.log('save ramp', rampSummary);
    const pick = (f: Summary | undefined) =>
      f && { rps: f.rps, p99: f.p99, ok: f.ok, requests: f.requests, errors: f.errors + f.non2xx };
    Object.assign(benchResult, {
      saves: {
        service: pick(fixed.service),
        serviceWithOps: pick(fixed['service+ops']),
        anchor: pick(fixed.anchor),
        anchorWithOps: pick(fixed['anchor+ops']),
      },
      ramp: rampSummary,
    });
    if (args.operations) benchResult.operations = await checkOperations();
  } finally {
    await anchor?.stop();
  }
  console.log(
    `load average after saves: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  // Submissions: every attempt submits once, arriving at submitRate per second.
  if (args.submit) await submissions(attempts);

  /** The operations stored against those the saves carried: every acknowledged one exactly once, in order. */
  async function checkOperations() {
    const rows = await stack.sql<{ key: string; chunks: number; stored: number; contiguous: boolean; bytes: number }[]>`
      select attempt_id || '/' || question_index as key, count(*)::int as chunks,
        sum(json_array_length(ops))::int as stored, sum(bytes)::int as bytes,
        bool_and("end" - start = json_array_length(ops)) and min(start) = 0 and max("end") = sum("end" - start) as contiguous
      from results_service.answer_operations group by attempt_id, question_index`;
    const stored = new Map(rows.map((r) => [r.key, r]));
    let sent = 0;
    let storedTotal = 0;
    let mismatched = 0;
    for (const [key, count] of pageOf('service').sent()) {
      sent += count;
      const row = stored.get(key);
      storedTotal += row?.stored ?? 0;
      if (!row || row.stored !== count || !row.contiguous) mismatched++;
    }
    const bytes = rows.reduce((sum, r) => sum + r.bytes, 0);
    // Storage per hour of continuous typing: the bytes per typed character (each key's time included) times a
    // fast typist's 300 characters a minute (60 words).
    const typed = (
      await stack.sql`select coalesce(sum(operations_chars[1]), 0)::float8 as n from results_service.attempts`
    )[0]!.n as number;
    const bytesPerChar = typed ? bytes / typed : null;
    const check = {
      sent,
      stored: storedTotal,
      questionsMismatched: mismatched,
      bytesStored: bytes,
      bytesPerOperation: storedTotal ? Number((bytes / storedTotal).toFixed(1)) : null,
      bytesPerTypedChar: bytesPerChar === null ? null : Number(bytesPerChar.toFixed(2)),
      kbPerHourAt300CharsPerMinute: bytesPerChar === null ? null : Math.round((bytesPerChar * 300 * 60) / 1024),
    };
    console.log('edit operations: sent vs stored', check);
    return check;
  }
} finally {
  await stack.stop();
}
console.log(`BENCH_RESULT ${JSON.stringify(benchResult)}`);

async function submissions(attempts: { id: string; auth: string }[]) {
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
  const drain = await processDrain();
  benchResult.submissions = {
    count: attempts.length,
    ok: submits.ok,
    errors: submits.errors + submits.non2xx,
    p99: submits.p99,
    wallSeconds: submits.wallSeconds,
    resultRows: counts.results,
    processRecords: drain,
  };
  const tables =
    await stack.sql`select relname, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where schemaname = 'results_service' order by relname`;
  /**
   * results.process is computed after each submission, off the submit path (the job the submit wakes, in a worker
   * thread): how long after the last submission every result had its record, and the service's CPU meanwhile.
   */
  async function processDrain() {
    const started = performance.now();
    const cpu = stack.serverCpuSeconds();
    let pending = 0;
    for (;;) {
      pending = (await stack.sql`select count(*)::int as n from results_service.results where process_pending`)[0]!
        .n as number;
      if (pending === 0 || performance.now() - started > 120_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const computed = (
      await stack.sql`select count(*)::int as n from results_service.results where process is not null`
    )[0]!.n as number;
    const drain = {
      computed,
      stillPending: pending,
      secondsAfterLastSubmit: Number(((performance.now() - started) / 1000).toFixed(2)),
      serverCpuMsWhileDraining: Number(((stack.serverCpuSeconds() - cpu) * 1000).toFixed(0)),
    };
    console.log('process records after the submissions', drain);
    return drain;
  }
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
