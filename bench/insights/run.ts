/**
 * Insights benchmark: GET /api/exams/{id}/insights for 10,000 submitted attempts × 50 items,
 * cold, from the real local PostgreSQL. Creates a throw-away database, applies results-service's
 * migrations, seeds it (seed.ts), then `--runs` times: starts results-service as production does
 * (node src/server.ts), sends one request with a creator token, reads the phase timings from the
 * Server-Timing header (INSIGHTS_SERVER_TIMING=1), stops the service. Drops the database at the end.
 * llm-gateway is a stub serving transcripts for a third of the candidates (transcripts.ts), or with
 * `--gateway down` nothing listens and the report comes without the assistant's figures.
 *
 *   node bench/insights/run.ts [--candidates 10000] [--items 50] [--runs 7] [--gateway stub|down] [--keep]
 *   node bench/insights/run.ts --database <url kept by --keep>   # measure again without seeding
 *   # BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test) is only used to create the bench database
 */
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
    port: { type: 'string', default: '14602' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
    gateway: { type: 'string', default: 'stub' },
  },
});
const CANDIDATES = Number(values.candidates);
const ITEMS = Number(values.items);
const RUNS = Number(values.runs);
const JWT_SECRET = 'bench-insights-jwt-secret-long-enough-0123456789';

/** An HS256 creator token, as exam-service issues them, signed with the secret given to the service. */
function creatorToken(secret: string, sub: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ kind: 'creator', sub, email: 'bench@example.com', sid: BENCH_SESSION_ID, iat: now, exp: now + 3600 })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
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
  const samples: Record<string, number>[] = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const service = await startService({
      port: Number(values.port),
      databaseUrl: dbUrl.toString(),
      jwtSecret: JWT_SECRET,
      llmGatewayUrl,
      examServiceUrl,
    });
    try {
      const load = loadavg()[0]!;
      const cpuBefore = cpuSecondsOf(service.pid);
      const start = performance.now();
      const response = await fetch(`${service.url}/api/exams/${BENCH_EXAM_ID}/insights`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await response.text();
      const total = performance.now() - start;
      const cpu = (cpuSecondsOf(service.pid) - cpuBefore) * 1000;
      if (response.status !== 200) throw new Error(`insights answered ${response.status}: ${body.slice(0, 500)}`);
      const report = JSON.parse(body) as {
        candidates: unknown[];
        items: unknown[];
        rasch: { converged: boolean; iterations: number };
      };
      if (report.candidates.length !== CANDIDATES || report.items.length !== ITEMS)
        throw new Error(`report has ${report.candidates.length} candidates and ${report.items.length} items`);
      const phases = parseServerTiming(response.headers.get('server-timing'));
      samples.push({ 'response (client)': total, 'service CPU (/proc)': cpu, ...phases });
      const shown = Object.entries(phases)
        .map(([k, v]) => `${k.slice(7)} ${v.toFixed(0)}`)
        .join(', ');
      console.log(
        `run ${run}: total ${total.toFixed(0)} ms, service CPU ${cpu.toFixed(0)} ms, ${shown}; body ${(body.length / 1e6).toFixed(1)} MB, Rasch ${report.rasch.iterations} iterations${report.rasch.converged ? '' : ' (not converged)'}, load ${load.toFixed(1)}`,
      );
    } finally {
      await service.stop();
    }
  }

  gateway?.close();
  sessions.close();

  const column = (name: string) =>
    samples
      .map((x) => x[name])
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
  const cell = (sorted: number[], p: number) => (sorted.length === 0 ? '—' : percentile(sorted, p).toFixed(0));
  const row = (label: string, wall: number[], cpu: number[]) =>
    console.log(`| ${label} | ${cell(wall, 50)} | ${cell(wall, 95)} | ${cell(cpu, 50)} | ${cell(cpu, 95)} |`);
  console.log(
    `\n${CANDIDATES} submitted attempts × ${ITEMS} items, ${RUNS} cold runs, llm-gateway ${gateway ? 'stub' : 'down'} (Node ${process.version}), load average now ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  console.log('| phase | wall p50 ms | wall p95 ms | CPU p50 ms | CPU p95 ms |');
  console.log('|---|---|---|---|---|');
  row(
    'whole request, client side (CPU: service process from /proc)',
    column('response (client)'),
    column('service CPU (/proc)'),
  );
  const phases = [...new Set(samples.flatMap((x) => Object.keys(x)))].filter(
    (k) => k.startsWith('server ') && !k.endsWith(' CPU'),
  );
  for (const name of phases) row(name.slice(7), column(name), column(`${name} CPU`));
  const p95 = (name: string) => percentile(column(name), 95);
  console.log(
    `\nclassical statistics p95 ${p95('server classical').toFixed(0)} ms (goal ≤ 1,000): ${p95('server classical') <= 1000 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `Rasch fit p95 ${p95('server rasch').toFixed(0)} ms (goal ≤ 10,000): ${p95('server rasch') <= 10000 ? 'met' : 'NOT met'}`,
  );
} finally {
  if (created && values.keep) console.log(`kept ${dbUrl.toString()}`);
  else if (created) await admin.unsafe(`drop database if exists "${created}" with (force)`);
  await admin.end();
}
