// The embedded database, PGlite against PostgreSQL's own binaries (issue 39, goal 3), side by side in one run:
// each engine started as `pnpm start` starts it (node packages/embedded-postgres/src/server.ts, EMBEDDED_DB=…,
// the same Node flags), on a fresh data folder, then
//   1. startup: the first start (creating the database) until it accepts connections;
//   2. idle memory of the database's process tree (PSS and RSS), with results-service's schema and four
//      clients connected as the four services are, and again after the load below;
//   3. saves: four clients (the four services, postgres.js pools of 10) running results-service's save, the
//      single-row upsert of bench/results-service/anchor.ts, back to back for --save-seconds: saves/s, p50, p99;
//   4. concurrent transactions: four clients each open a transaction, write, hold it --hold-ms (a service's own
//      work between two statements) and commit, all at once, --rounds times: the wall time of each round and
//      each transaction's latency. On PostgreSQL the four overlap; PGlite is one session, its wire server runs
//      one transaction at a time (wire.ts), so they queue;
//   5. the insights request: results-service started on the engine, --candidates × --items submitted attempts
//      seeded (bench/insights/seed.ts), GET /api/exams/{id}/insights recomputed (a grader's change first) --runs
//      times: the median.
// Prints one BENCH_RESULT line: per engine the figures, and PGlite's over PostgreSQL's as ratios.
//
//   node bench/embedded/compare.ts [--engines pglite,postgres] [--save-seconds 10] [--hold-ms 100] [--rounds 5]
//                                  [--candidates 2000] [--items 50] [--runs 3] [--port 4632]
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { openResultsDatabase } from '../../services/results-service/src/db/database.ts';
import { BENCH_EXAM_ID, BENCH_OWNER_ID, seedInsights } from '../insights/seed.ts';
import { INTERNAL_TOKEN, percentile, startService } from '../insights/service.ts';
import { BENCH_SESSION_ID, startSessionStub, startTranscriptStub } from '../insights/transcripts.ts';
import { byName, sample } from '../memory/process-tree.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    'save-seconds': { type: 'string', default: '10' },
    'hold-ms': { type: 'string', default: '100' },
    rounds: { type: 'string', default: '5' },
    candidates: { type: 'string', default: '2000' },
    items: { type: 'string', default: '50' },
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: '4632' },
    'settle-ms': { type: 'string', default: '5000' },
  },
});
const engines = values.engines.split(',').map((e) => e.trim()) as ('pglite' | 'postgres')[];
const SAVE_SECONDS = Number(values['save-seconds']);
const HOLD_MS = Number(values['hold-ms']);
const ROUNDS = Number(values.rounds);
const CANDIDATES = Number(values.candidates);
const ITEMS = Number(values.items);
const RUNS = Number(values.runs);
const PORT = Number(values.port);
const SETTLE_MS = Number(values['settle-ms']);
const CLIENTS = 4;
const JWT_SECRET = 'bench-embedded-jwt-secret-long-enough-0123456789';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round1 = (n: number) => Math.round(n * 10) / 10;
const mb = (kb: number) => Math.round(kb / 1024);
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

function creatorToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = { kind: 'creator', sub: BENCH_OWNER_ID, email: 'bench@example.com', sid: BENCH_SESSION_ID };
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ ...claims, iat: now, exp: now + 3600 })}`;
  return `${unsigned}.${createHmac('sha256', JWT_SECRET).update(unsigned).digest('base64url')}`;
}

/** The database as start.ts runs it: the same entry, engine and Node flags. */
async function startDatabase(engine: string, dataDir: string) {
  const flags = ['--max-semi-space-size=1', '--optimize-for-size', '--expose-gc'];
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...flags, 'src/server.ts'], {
    cwd: join(root, 'packages', 'embedded-postgres'),
    env: { ...process.env, DATA_DIR: dataDir, EMBEDDED_DB: engine, EMBEDDED_POSTGRES_PORT: String(PORT) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  await new Promise<void>((ok, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready on port/.test(output)) ok();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${engine} exited (${code}):\n${output.slice(-2000)}`)));
  });
  return {
    pid: child.pid!,
    startupMs: performance.now() - started,
    url: `postgres://postgres@127.0.0.1:${PORT}/postgres`,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    },
  };
}

function memory(pid: number) {
  const rows = sample(pid);
  return {
    rssMb: mb(rows.reduce((s, r) => s + r.rssKb, 0)),
    pssMb: mb(rows.reduce((s, r) => s + r.pssKb, 0)),
    processes: byName(rows).map((g) => `${g.name}${g.count > 1 ? ` ×${g.count}` : ''}: PSS ${mb(g.pssKb)} MB`),
  };
}

/** Four clients saving back to back: bench/results-service/anchor.ts's upsert, on 500 attempts × 20 questions. */
async function saves(clients: postgres.Sql[]) {
  const latencies: number[] = [];
  const end = performance.now() + SAVE_SECONDS * 1000;
  let seq = 0;
  let errors = 0;
  const worker = async (sql: postgres.Sql) => {
    while (performance.now() < end) {
      seq += 1;
      const n = seq;
      const start = performance.now();
      try {
        await sql`
          insert into bench_embedded.answers (attempt_id, question_index, answer, seq, updated_at)
          values (${`att-${n % 500}`}, ${n % 20}, ${`answer ${n}`}, ${n}, now())
          on conflict (attempt_id, question_index) do update
            set answer = excluded.answer, seq = excluded.seq, updated_at = excluded.updated_at
            where answers.seq < excluded.seq`;
        latencies.push(performance.now() - start);
      } catch {
        errors += 1;
      }
    }
  };
  // Each client keeps 10 saves in flight, as a service's pool of 10 does under load.
  await Promise.all(clients.flatMap((sql) => Array.from({ length: 10 }, () => worker(sql))));
  latencies.sort((a, b) => a - b);
  return {
    perSecond: Math.round(latencies.length / SAVE_SECONDS),
    p50Ms: round1(percentile(latencies, 50)),
    p99Ms: round1(percentile(latencies, 99)),
    errors,
  };
}

/** Four services each holding a transaction open at once: how long the round, and each transaction, takes. */
async function transactions(clients: postgres.Sql[]) {
  const rounds: number[] = [];
  const each: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const start = performance.now();
    await Promise.all(
      clients.map(async (sql, i) => {
        const own = performance.now();
        await sql.begin(async (tx) => {
          await tx`update bench_embedded.counters set n = n + 1 where id = ${i}`;
          await sleep(HOLD_MS);
          await tx`select n from bench_embedded.counters where id = ${i}`;
        });
        each.push(performance.now() - own);
      }),
    );
    rounds.push(performance.now() - start);
  }
  each.sort((a, b) => a - b);
  return {
    holdMs: HOLD_MS,
    roundMedianMs: Math.round(median(rounds)),
    transactionP50Ms: Math.round(percentile(each, 50)),
    transactionMaxMs: Math.round(each.at(-1)!),
  };
}

async function insights(url: string) {
  const migrated = await openResultsDatabase({ databaseUrl: url, poolSize: 1 });
  await migrated.close();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const seedStart = performance.now();
  await seedInsights(sql, CANDIDATES, ITEMS);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const stubPort = PORT + 2;
  const transcripts = await startTranscriptStub(stubPort, INTERNAL_TOKEN, CANDIDATES, ITEMS);
  const sessions = await startSessionStub(stubPort + 1, INTERNAL_TOKEN, BENCH_OWNER_ID);
  const service = await startService({
    port: PORT + 1,
    databaseUrl: url,
    jwtSecret: JWT_SECRET,
    llmGatewayUrl: `http://127.0.0.1:${stubPort}`,
    examServiceUrl: `http://127.0.0.1:${stubPort + 1}`,
  });
  const token = creatorToken();
  const times: number[] = [];
  try {
    for (let run = 0; run <= RUNS; run += 1) {
      // A grader's change makes the next request compute the report again (the insights cache's version).
      await sql.unsafe(
        `update results_service.results set updated_at = now(),
           grades = jsonb_set(grades, '{0,points}', to_jsonb(1 - coalesce((grades->0->>'points')::numeric, 0)))
         where id = $1`,
        [`res-${String(run + 1).padStart(6, '0')}`],
      );
      const start = performance.now();
      const response = await fetch(`${service.url}/api/exams/${BENCH_EXAM_ID}/insights`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`insights answered ${response.status}: ${body.slice(0, 300)}`);
      const report = JSON.parse(body) as { candidates: unknown[] };
      if (report.candidates.length !== CANDIDATES) throw new Error(`${report.candidates.length} candidates`);
      // The first request of the process also pays its JIT and pool: left out of the median.
      if (run > 0) times.push(performance.now() - start);
    }
  } finally {
    await service.stop();
    transcripts.close();
    sessions.close();
    await sql.end();
  }
  return {
    candidates: CANDIDATES,
    items: ITEMS,
    seedSeconds: round1(seedSeconds),
    medianMs: Math.round(median(times)),
  };
}

async function measure(engine: 'pglite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), `exam-embedded-${engine}-`));
  const db = await startDatabase(engine, dataDir);
  const clients = Array.from({ length: CLIENTS }, () => postgres(db.url, { max: 10, onnotice: () => {} }));
  try {
    const [admin] = clients as [postgres.Sql];
    await admin.unsafe(`
      create schema if not exists bench_embedded;
      create table if not exists bench_embedded.answers (
        attempt_id text not null, question_index integer not null, answer text not null, seq bigint not null,
        updated_at timestamptz not null, primary key (attempt_id, question_index));
      create table if not exists bench_embedded.counters (id integer primary key, n bigint not null);
      insert into bench_embedded.counters select i, 0 from generate_series(0, ${CLIENTS - 1}) i on conflict do nothing;`);
    await Promise.all(clients.map((sql) => sql`select 1`));
    await sleep(SETTLE_MS);
    const idle = memory(db.pid);
    console.log(`${engine}: started in ${(db.startupMs / 1000).toFixed(1)} s; idle ${JSON.stringify(idle)}`);
    const save = await saves(clients);
    console.log(`${engine}: saves ${JSON.stringify(save)} (load ${loadavg()[0]!.toFixed(1)})`);
    const tx = await transactions(clients);
    console.log(`${engine}: 4 open transactions ${JSON.stringify(tx)}`);
    await Promise.all(clients.map((sql) => sql.end({ timeout: 5 })));
    const report = await insights(db.url);
    console.log(`${engine}: insights ${JSON.stringify(report)} (load ${loadavg()[0]!.toFixed(1)})`);
    await sleep(SETTLE_MS);
    const afterLoad = memory(db.pid);
    console.log(`${engine}: after the load ${JSON.stringify(afterLoad)}`);
    return {
      startupSeconds: round1(db.startupMs / 1000),
      idle: { rssMb: idle.rssMb, pssMb: idle.pssMb },
      afterLoad: { rssMb: afterLoad.rssMb, pssMb: afterLoad.pssMb },
      saves: save,
      transactions: tx,
      insights: report,
    };
  } finally {
    await Promise.all(clients.map((sql) => sql.end({ timeout: 1 }).catch(() => {})));
    await db.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const loadBefore = loadavg()[0]!;
const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
for (const engine of engines) results[engine] = await measure(engine);
const a = results.pglite;
const b = results.postgres;
const ratios =
  a && b
    ? {
        idlePss: round1(a.idle.pssMb / b.idle.pssMb),
        afterLoadPss: round1(a.afterLoad.pssMb / b.afterLoad.pssMb),
        saves: Math.round((b.saves.perSecond / a.saves.perSecond) * 100) / 100,
        transactionRound: Math.round((a.transactions.roundMedianMs / b.transactions.roundMedianMs) * 100) / 100,
        insights: Math.round((a.insights.medianMs / b.insights.medianMs) * 100) / 100,
      }
    : undefined;
if (ratios)
  console.log(
    `\nPGlite / PostgreSQL: idle PSS ${ratios.idlePss}×, after load ${ratios.afterLoadPss}×; PostgreSQL saves ` +
      `${ratios.saves}× PGlite's; four open transactions ${ratios.transactionRound}× as long on PGlite; insights ${ratios.insights}×`,
  );
console.log(
  `BENCH_RESULT ${JSON.stringify({ engines: results, ratios, load: { before: round1(loadBefore), after: round1(loadavg()[0]!) } })}`,
);
process.exit(0);
