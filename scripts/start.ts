// Starts the whole platform: the four services and the two web servers (built bundles served by
// `vite preview`, or `vite` with hot reload under --dev), each web server proxying /api/* to the
// service that owns the path. Embedded defaults: PGlite under .data/, generated secrets, no external
// service. Ctrl-C (SIGINT) or SIGTERM stops every process it started.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_SERVICE_PORTS,
  SERVICES,
  serviceEnvPrefix,
  type ServiceName,
} from '../packages/domain/src/service-routes.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const env = process.env;

const servicePort = (s: ServiceName) => Number(env[`${serviceEnvPrefix(s)}_PORT`] ?? DEFAULT_SERVICE_PORTS[s]);
const creatorPort = Number(env.CREATOR_WEB_PORT ?? 5173);
const takerPort = Number(env.TAKER_WEB_PORT ?? 5174);
const serviceHost = env.SERVICE_HOST ?? '127.0.0.1';
const dataDir = resolve(env.DATA_DIR ?? join(root, '.data'));
mkdirSync(dataDir, { recursive: true });

const shared: Record<string, string> = {
  DATA_DIR: dataDir,
  CREATOR_ORIGIN: env.CREATOR_ORIGIN ?? `http://localhost:${creatorPort}`,
  TAKER_ORIGIN: env.TAKER_ORIGIN ?? `http://localhost:${takerPort}`,
  CREATOR_WEB_PORT: String(creatorPort),
  TAKER_WEB_PORT: String(takerPort),
  ...Object.fromEntries(
    SERVICES.map((s) => [
      `${serviceEnvPrefix(s)}_URL`,
      env[`${serviceEnvPrefix(s)}_URL`] ?? `http://${serviceHost}:${servicePort(s)}`,
    ]),
  ),
};

if (!dev) {
  console.log('Building the web apps…');
  const build = spawnSync(
    'pnpm',
    [
      'exec',
      'turbo',
      'run',
      'build',
      '--filter=@exam/creator-web',
      '--filter=@exam/taker-web',
      '--output-logs=errors-only',
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const children: { name: string; child: ChildProcess }[] = [];
let stopping = false;

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
}

for (const service of SERVICES) {
  launch(
    service,
    join(root, 'services', service),
    process.execPath,
    dev ? ['--watch', 'src/server.ts'] : ['src/server.ts'],
    {
      PORT: String(servicePort(service)),
      HOST: serviceHost,
    },
  );
}
for (const app of ['creator-web', 'taker-web'] as const) {
  launch(app, join(root, 'apps', app), 'pnpm', ['exec', 'vite', ...(dev ? [] : ['preview']), '--strictPort'], {});
}

async function waitFor(url: string, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && !stopping) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
  const deadline = Date.now() + 10_000;
  while (children.some(({ child }) => child.exitCode === null && child.signalCode === null) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
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
  process.exit(code);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
// `pnpm start` runs this script under pnpm, and pnpm does not pass a SIGTERM on: killed, it exits and leaves
// this process orphaned with the whole stack running. When the parent goes away, stop as if signalled.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) void stopAll(0);
}, 500).unref();

const checks = [
  ...SERVICES.map((s) => [s, `${shared[`${serviceEnvPrefix(s)}_URL`]}/health`] as const),
  ['creator-web', `http://localhost:${creatorPort}/runtime-config.json`] as const,
  ['taker-web', `http://localhost:${takerPort}/runtime-config.json`] as const,
];
const results = await Promise.all(checks.map(async ([name, url]) => [name, await waitFor(url, 120_000)] as const));
const failed = results.filter(([, ok]) => !ok).map(([name]) => name);
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
  Data: ${dataDir}    Stop: Ctrl-C
`);
