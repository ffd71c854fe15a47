// The two stacks the capacity benchmark measures, behind one shape: where candidates send their requests, which
// processes to read the CPU of (by name), and stop().
//   embedded: `pnpm start` as a fresh clone runs it (no DATABASE_URL: the shared PGlite database, generated
//             secrets, info-level logs relayed by scripts/start.ts), candidates through taker-web's server as a
//             browser goes; every port moved by the offset so it runs beside other checkouts.
//   postgres: the scale stack (scripts/scale/harness.ts): two replicas of every service behind haproxy on a fresh
//             database of the local PostgreSQL (Redis when TEST_REDIS_URL is set), candidates at haproxy's frontends.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { SERVICES, serviceEnvPrefix } from '../../packages/domain/src/service-routes.ts';
import { ROOT, startScaleStack } from '../../scripts/scale/harness.ts';
import { nameOfStartProcess, pidsNamed, treeOf } from './cpu.ts';

export type Stack = {
  name: 'embedded' | 'postgres';
  resultsOrigin: string;
  gatewayOrigin: string;
  examOrigin: string;
  /** The processes to account for now (a pool's new database backends appear as they connect). */
  processes: () => Promise<Array<{ pid: number; name: string }>>;
  /** Names counted as the database (for the model's database share). */
  databaseNames: string[];
  /**
   * The stack's statements so far from pg_stat_statements (calls, time executing in ms, by statement), when the
   * server has it loaded (shared_preload_libraries) and the extension exists in the admin database; else null.
   */
  statements?: () => Promise<StatementStats | null>;
  stop: () => Promise<void>;
};

export type StatementStats = Map<string, { query: string; calls: number; totalMs: number }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bench-only settings both stacks get; none weakens a default a deployment runs with. */
function benchEnv(providerPort: number): Record<string, string> {
  return {
    OPENAI_BASE_URL: `http://127.0.0.1:${providerPort}/v1`,
    OPENAI_API_KEY: 'sk-capacity-bench',
    // The candidates reach the stack through a load balancer on 127.0.0.1 that names them in X-Forwarded-For (one
    // address per exam hall): the web server believes it as it would a deployment's proxy (the services already
    // trust loopback by default), so the per-address start limits apply per hall as in production.
    TRUSTED_PROXIES: '127.0.0.1,::1',
    // BENCH_CPU_PROF=<dir>: every service writes a V8 CPU profile (<dir>/CPU.*.<pid>.cpuprofile) when it exits.
    ...(process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF}` } : {}),
  };
}

export async function startEmbedded(opts: { portOffset: number; providerPort: number }): Promise<Stack> {
  const base = 6100 + opts.portOffset;
  const ports = {
    creator: base,
    taker: base + 1,
    services: Object.fromEntries(SERVICES.map((s, i) => [s, base + 2 + i])) as Record<string, number>,
    workspace: base + 6,
    mailbox: base + 7,
    smtp: base + 8,
    database: base + 9,
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'exam-capacity-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...benchEnv(opts.providerPort),
    DATA_DIR: dataDir,
    CREATOR_WEB_PORT: String(ports.creator),
    TAKER_WEB_PORT: String(ports.taker),
    WORKSPACE_PORT: String(ports.workspace),
    MAILBOX_PORT: String(ports.mailbox),
    MAILBOX_SMTP_PORT: String(ports.smtp),
    EMBEDDED_POSTGRES_PORT: String(ports.database),
    ...Object.fromEntries(SERVICES.map((s) => [`${serviceEnvPrefix(s)}_PORT`, String(ports.services[s])])),
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn('pnpm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  let ready = false;
  const onData = (chunk: Buffer) => {
    if (ready) return; // the logs keep coming (info level); only the start is of interest
    tail = (tail + chunk.toString()).slice(-20_000);
    if (tail.includes('Exam platform is running')) ready = true;
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const deadline = Date.now() + 600_000;
  while (!ready) {
    if (child.exitCode !== null) throw new Error(`pnpm start exited (${child.exitCode}):\n${tail.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`pnpm start did not come up:\n${tail.slice(-3000)}`);
    await sleep(250);
  }
  const taker = `http://127.0.0.1:${ports.taker}`;
  return {
    name: 'embedded',
    resultsOrigin: taker,
    gatewayOrigin: taker,
    examOrigin: `http://127.0.0.1:${ports.services['exam-service']}`,
    databaseNames: ['database (embedded PGlite)'],
    processes: async () => treeOf(child.pid!).map((pid) => ({ pid, name: nameOfStartProcess(pid) })),
    async stop() {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // gone
      }
      const end = Date.now() + 15_000;
      while (child.exitCode === null && child.signalCode === null && Date.now() < end) await sleep(200);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // all gone
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startPostgres(opts: {
  portOffset: number;
  providerPort: number;
  adminDatabaseUrl: string;
  redisUrl?: string;
}): Promise<Stack> {
  const stack = await startScaleStack({
    adminDatabaseUrl: opts.adminDatabaseUrl,
    basePort: 7300 + opts.portOffset,
    openAiBaseUrl: `http://127.0.0.1:${opts.providerPort}/v1`,
    ...(opts.redisUrl ? { redisUrl: opts.redisUrl } : {}),
    env: benchEnv(opts.providerPort),
    log: (line) => console.log(line),
  });
  const admin = postgres(opts.adminDatabaseUrl, { max: 1, onnotice: () => {} });
  return {
    name: 'postgres',
    resultsOrigin: stack.proxyUrl('results-service'),
    gatewayOrigin: stack.proxyUrl('llm-gateway'),
    examOrigin: stack.proxyUrl('exam-service'),
    databaseNames: ['database (PostgreSQL backends)'],
    async statements() {
      try {
        const rows = await admin<{ queryid: string; query: string; calls: string; total: number }[]>`
          select queryid::text, query, calls::text, total_exec_time as total from pg_stat_statements
          where dbid = (select oid from pg_database where datname = ${stack.databaseName})`;
        return new Map(
          rows.map((r) => [r.queryid, { query: r.query, calls: Number(r.calls), totalMs: Number(r.total) }]),
        );
      } catch {
        return null; // not loaded on this server
      }
    },
    async processes() {
      const replicas = stack.replicas.flatMap((r) =>
        r.child?.pid ? treeOf(r.child.pid).map((pid) => ({ pid, name: r.service })) : [],
      );
      // This stack's haproxy: the one whose configuration sits in the stack's folder.
      const haproxy = pidsNamed('haproxy')
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(stack.workDir);
          } catch {
            return false;
          }
        })
        .map((pid) => ({ pid, name: 'haproxy' }));
      // The PostgreSQL server is shared with others on this box: only the backends serving this stack's database.
      const backends = await admin<{ pid: number }[]>`
        select pid from pg_stat_activity where datname = ${stack.databaseName}`;
      const redis = opts.redisUrl
        ? pidsNamed('redis-server').map((pid) => ({ pid, name: 'redis (whole server, shared)' }))
        : [];
      return [
        ...replicas,
        ...haproxy,
        ...backends.map((b) => ({ pid: b.pid, name: 'database (PostgreSQL backends)' })),
        ...redis,
      ];
    },
    async stop() {
      await admin.end();
      await stack.stop();
    },
  };
}
