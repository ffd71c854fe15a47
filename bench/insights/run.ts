/**
 * Insights benchmark: GET /api/exams/{id}/insights for 10,000 submitted attempts × 50 items from the
 * real local PostgreSQL. Creates a throw-away database, applies results-service's migrations, seeds it
 * (seed.ts), starts results-service as production does (node src/server.ts), then:
 * - "process cold": the first request of the fresh process (no JIT, no pool, nothing cached);
 * - `--runs` rounds of: a grader's change to one result (SQL on the results table, which bumps the
 *   exam's insights version like every write: migration insights_cache), then one request ("cold": the
 *   report is computed again) and `--warm` requests ("warm": served from the insights cache).
 * Each response is checked (200, every candidate and item), its phases read from the Server-Timing header
 * (INSIGHTS_SERVER_TIMING=1). The anchor is bench/psychometrics.ts (the whole report in memory) run in the
 * same invocation, so the ratios hold whatever else loads the machine. Drops the database at the end.
 * llm-gateway is a stub serving transcripts for a third of the candidates (transcripts.ts), or with
 * `--gateway down` nothing listens and the report comes without the assistant's figures.
 *
 *   node bench/insights/run.ts [--candidates 10000] [--items 50] [--runs 7] [--warm 5] [--gateway stub|down] [--keep] [--no-anchor]
 *   node bench/insights/run.ts --database <url kept by --keep>   # measure again without seeding
 *   # BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test) is only used to create the bench database
 */
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { openResultsDatabase } from '../../services/results-service/src/db/database.ts';
import { BENCH_EXAM_ID, BENCH_OWNER_ID, seedInsights } from './seed.ts';
import { CLOSED_PORT_URL, cpuSecondsOf, INTERNAL_TOKEN, percentile, startService } from './service.ts';
import { BENCH_SESSION_ID, startSessionStub, startTranscriptStub } from './transcripts.ts';

const { values } = parseArgs({
  options: {
    candidates: { type: 'string', default: '10000' },
    items: { type: 'string', default: '50' },
    runs: { type: 'string', default: '7' },
    warm: { type: 'string', default: '5' },
    'no-anchor': { type: 'boolean', default: false },
    port: { type: 'string', default: '14602' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
    gateway: { type: 'string', default: 'stub' },
  },
});
const CANDIDATES = Number(values.candidates);
const ITEMS = Number(values.items);
const RUNS = Number(values.runs);
const WARM = Number(values.warm);
const JWT_SECRET = 'bench-insights-jwt-secret-long-enough-0123456789';

/** An HS256 creator token, as exam-service issues them, signed with the secret given to the service. */
function creatorToken(secret: string, sub: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ kind: 'creator', sub, email: 'bench@example.com', sid: BENCH_SESSION_ID, iat: now, exp: now + 3600 })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/**
 * bench/psychometrics.ts with the same cohort size: its "whole insights report" row (wall and CPU p95, ms),
 * the in-memory work the request can never go below.
 */
function runAnchor(): { wall: number; cpu: number } {
  const script = new URL('../psychometrics.ts', import.meta.url).pathname;
  const out = spawnSync(
    process.execPath,
    [script, '--candidates', String(CANDIDATES), '--items', String(ITEMS), '--runs', '3'],
    {
      encoding: 'utf8',
    },
  );
  const row = out.stdout.split('\n').find((l) => l.startsWith('| whole insights report'));
  if (!row) throw new Error(`bench/psychometrics.ts gave no report row: ${out.stderr.slice(0, 500)}`);
  const cells = row.split('|').map((c) => c.trim());
  console.log(`anchor: ${row}`);
  return { wall: Number(cells[3]), cpu: Number(cells[5]) };
}

/** `db;dur=12.3;desc="cpu=8.1", serialize;dur=4` → { db: 12.3, 'db CPU': 8.1, serialize: 4 }. */
function parseServerTiming(header: string | null): Record<string, number> {
  const phases: Record<string, number> = {};
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry
      .trim()
      .split(';')
      .map((p) => p.trim());
    const dur = params.find((p) => p.startsWith('dur='));
    const cpu = /^desc="cpu=([\d.]+)"$/.exec(params.find((p) => p.startsWith('desc=')) ?? '');
    if (name && dur) phases[`server ${name}`] = Number(dur.slice(4));
    if (name && cpu) phases[`server ${name} CPU`] = Number(cpu[1]);
  }
  return phases;
}

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
const dbUrl = new URL(values.database ?? adminUrl);
const created = values.database ? null : `bench_insights_${Date.now()}`;

try {
  if (created) {
    await admin.unsafe(`create database "${created}"`);
    dbUrl.pathname = `/${created}`;
    const migrated = await openResultsDatabase({ databaseUrl: dbUrl.toString(), poolSize: 1 });
    await migrated.close();
    const sql = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
    const seedStart = performance.now();
    const seeded = await seedInsights(sql, CANDIDATES, ITEMS);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const [size] = await sql<{ size: string }[]>`select pg_size_pretty(pg_database_size(current_database())) as size`;
    await sql.end();
    console.log(`seeded ${created} in ${seedSeconds.toFixed(1)} s: ${JSON.stringify(seeded)}, database ${size!.size}`);
  }

  const token = creatorToken(JWT_SECRET, BENCH_OWNER_ID);
  const stubPort = Number(values.port) + 1;
  const gateway =
    values.gateway === 'down' ? null : await startTranscriptStub(stubPort, INTERNAL_TOKEN, CANDIDATES, ITEMS);
  const llmGatewayUrl = gateway ? `http://127.0.0.1:${stubPort}` : CLOSED_PORT_URL;
  const sessions = await startSessionStub(stubPort + 1, INTERNAL_TOKEN, BENCH_OWNER_ID);
  const examServiceUrl = `http://127.0.0.1:${stubPort + 1}`;
  const anchor = values['no-anchor'] ? null : runAnchor();
  const samples: Record<'process' | 'cold' | 'warm', Record<string, number>[]> = { process: [], cold: [], warm: [] };
  const service = await startService({
    port: Number(values.port),
    databaseUrl: dbUrl.toString(),
    jwtSecret: JWT_SECRET,
    llmGatewayUrl,
    examServiceUrl,
  });
  const sql = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  const loads: number[] = [];
  try {
    /** One request, checked, with its phases; printed as one line. */
    const measure = async (kind: 'process' | 'cold' | 'warm', label: string) => {
      const load = loadavg()[0]!;
      loads.push(load);
      const cpuBefore = cpuSecondsOf(service.pid);
      const start = performance.now();
      const response = await fetch(`${service.url}/api/exams/${BENCH_EXAM_ID}/insights`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await response.text();
      const total = performance.now() - start;
      const cpu = (cpuSecondsOf(service.pid) - cpuBefore) * 1000;
      if (response.status !== 200) throw new Error(`insights answered ${response.status}: ${body.slice(0, 500)}`);
      const report = JSON.parse(body) as { candidates: unknown[]; items: unknown[] };
      if (report.candidates.length !== CANDIDATES || report.items.length !== ITEMS)
        throw new Error(`report has ${report.candidates.length} candidates and ${report.items.length} items`);
      const phases = parseServerTiming(response.headers.get('server-timing'));
      const computed = 'server db' in phases;
      if (computed !== (kind !== 'warm'))
        throw new Error(`${label}: expected ${kind}, the report was ${computed ? 'computed' : 'cached'}`);
      samples[kind].push({ 'response (client)': total, 'service CPU (/proc)': cpu, ...phases });
      const shown = Object.entries(phases)
        .filter(([k]) => !k.endsWith(' CPU'))
        .map(([k, v]) => `${k.slice(7)} ${v.toFixed(0)}`)
        .join(', ');
      console.log(
        `${label}: ${total.toFixed(0)} ms, service CPU ${cpu.toFixed(0)} ms, ${shown}; body ${(body.length / 1e6).toFixed(1)} MB, load ${load.toFixed(1)}`,
      );
    };
    await measure('process', 'first request of the process');
    for (let run = 1; run <= RUNS; run += 1) {
      // A grader flips one mark of one result (what PATCH /api/results/{id} writes, minus the history).
      await sql.unsafe(
        `update results_service.results
         set grades = jsonb_set(grades, '{0,points}', to_jsonb(1 - coalesce((grades->0->>'points')::numeric, 0))), updated_at = now()
         where id = $1`,
        [`res-${String(run).padStart(6, '0')}`],
      );
      await measure('cold', `run ${run} cold`);
      for (let w = 1; w <= WARM; w += 1) await measure('warm', `run ${run} warm ${w}`);
    }
  } finally {
    await sql.end();
    await service.stop();
  }

  gateway?.close();
  sessions.close();

  const cell = (sorted: number[], p: number) => (sorted.length === 0 ? '—' : percentile(sorted, p).toFixed(0));
  const load = [Math.min(...loads), Math.max(...loads)].map((l) => l.toFixed(1)).join('–');
  console.log(
    `\n${CANDIDATES} submitted attempts × ${ITEMS} items, llm-gateway ${gateway ? 'stub' : 'down'} (Node ${process.version}); 1 process-cold, ${RUNS} cold (after a change), ${RUNS * WARM} warm requests; load average (1 min) ${load} during the requests`,
  );
  for (const kind of ['process', 'cold', 'warm'] as const) {
    const column = (name: string) =>
      samples[kind]
        .map((x) => x[name])
        .filter((v): v is number => v !== undefined)
        .sort((a, b) => a - b);
    console.log(`\n${kind === 'process' ? 'first request of the process' : kind} (${samples[kind].length} requests)\n`);
    console.log('| phase | wall p50 ms | wall p95 ms | CPU p50 ms | CPU p95 ms |');
    console.log('|---|---|---|---|---|');
    const row = (label: string, wall: number[], cpu: number[]) =>
      console.log(`| ${label} | ${cell(wall, 50)} | ${cell(wall, 95)} | ${cell(cpu, 50)} | ${cell(cpu, 95)} |`);
    row(
      'whole request, client side (CPU: service process from /proc)',
      column('response (client)'),
      column('service CPU (/proc)'),
    );
    const phases = [...new Set(samples[kind].flatMap((x) => Object.keys(x)))].filter(
      (k) => k.startsWith('server ') && !k.endsWith(' CPU'),
    );
    for (const name of phases) row(name.slice(7), column(name), column(`${name} CPU`));
  }
  const p95 = (kind: 'cold' | 'warm', name: string) =>
    percentile(
      samples[kind].map((x) => x[name]!).sort((a, b) => a - b),
      95,
    );
  const verdict = (ms: number) => `${ms.toFixed(0)} ms (goal ≤ 2,000): ${ms <= 2000 ? 'met' : 'NOT met'}`;
  console.log(`\nwhole request p95, cold (after a change): ${verdict(p95('cold', 'response (client)'))}`);
  console.log(`whole request p95, warm (cached): ${verdict(p95('warm', 'response (client)'))}`);
  // One machine-readable line for bench/run.ts.
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      candidates: CANDIDATES,
      items: ITEMS,
      cold: { wallP95: p95('cold', 'response (client)'), cpuP95: p95('cold', 'service CPU (/proc)') },
      warm: { wallP95: p95('warm', 'response (client)'), cpuP95: p95('warm', 'service CPU (/proc)') },
      anchor,
    })}`,
  );
  if (anchor) {
    const ratio = (kind: 'cold' | 'warm', name: string, of: number) => (p95(kind, name) / of).toFixed(2);
    console.log(
      `anchor (bench/psychometrics.ts, whole report in memory, same invocation): wall p95 ${anchor.wall.toFixed(0)} ms, CPU p95 ${anchor.cpu.toFixed(0)} ms; ` +
        `cold / anchor: wall ${ratio('cold', 'response (client)', anchor.wall)}, CPU ${ratio('cold', 'service CPU (/proc)', anchor.cpu)}; ` +
        `warm / anchor: wall ${ratio('warm', 'response (client)', anchor.wall)}, CPU ${ratio('warm', 'service CPU (/proc)', anchor.cpu)}`,
    );
  }
} finally {
  if (created && values.keep) console.log(`kept ${dbUrl.toString()}`);
  else if (created) await admin.unsafe(`drop database if exists "${created}" with (force)`);
  await admin.end();
}
