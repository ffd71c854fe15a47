// The scaled platform on one machine: a fresh PostgreSQL database, two replicas of every service (each its own
// process group, `node src/server.ts` as production starts it), haproxy in front of them with one round-robin
// frontend per service, and both web servers pointed at those frontends. Every service reaches the others
// through the proxy too, so a dead replica is seen by browsers and by services alike. kill() and restart()
// are the faults the scale test injects.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { SERVICES, serviceEnvPrefix, type ServiceName } from '../../packages/domain/src/service-routes.ts';
import { haproxyConfig, type ProxiedBackend } from './haproxy-config.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type ScaleStackOptions = {
  /** A database URL on the PostgreSQL server; the stack creates its own database there and drops it at stop. */
  adminDatabaseUrl: string;
  /** The stack uses ports basePort … basePort + 29 (see portLayout). */
  basePort: number;
  replicas?: number;
  /** The web servers' ports; they are started only when given. */
  web?: { creatorPort: number; takerPort: number };
  /** The OpenAI-compatible upstream the gateways use by default (a fake in tests). */
  openAiBaseUrl: string;
  openAiApiKey?: string;
  redisUrl?: string;
  /** More settings for every service. */
  env?: Record<string, string>;
  log?: (line: string) => void;
};

export type Replica = {
  service: ServiceName;
  index: number;
  port: number;
  /** The orchestrator's editors' listener. */
  workspacePort?: number;
  child?: ChildProcess;
  logFile: string;
};

/** Where everything listens, relative to basePort. */
export function portLayout(basePort: number, replicas: number) {
  const frontend = Object.fromEntries(SERVICES.map((s, i) => [s, basePort + 1 + i])) as Record<ServiceName, number>;
  const replica = (service: ServiceName, index: number) => basePort + 10 + SERVICES.indexOf(service) * replicas + index;
  return {
    frontend,
    workspaceFrontend: basePort + 5,
    stats: basePort + 9,
    replica,
    workspace: (index: number) => basePort + 10 + SERVICES.length * replicas + index,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the URL answers 200, the deadline passes, or the process died. */
export async function waitFor(url: string, opts: { timeoutMs: number; child?: ChildProcess; what: string }) {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    if (opts.child && opts.child.exitCode !== null) throw new Error(`${opts.what} exited with ${opts.child.exitCode}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  throw new Error(`${opts.what} did not answer ${url} within ${opts.timeoutMs} ms`);
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function alive(child: ChildProcess | undefined): child is ChildProcess {
  return !!child && child.exitCode === null && child.signalCode === null;
}

function signalGroup(child: ChildProcess | undefined, signal: NodeJS.Signals) {
  if (!child?.pid || !alive(child)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (!alive(child)) return true;
  return Promise.race([
    new Promise<boolean>((resolve) => child.once('exit', () => resolve(true))),
    sleep(timeoutMs).then(() => !alive(child)),
  ]);
}

export type ScaleStack = Awaited<ReturnType<typeof startScaleStack>>;

export async function startScaleStack(opts: ScaleStackOptions) {
  const replicasPerService = opts.replicas ?? 2;
  const log = opts.log ?? ((line: string) => console.log(line));
  const ports = portLayout(opts.basePort, replicasPerService);
  const workDir = mkdtempSync(join(tmpdir(), 'exam-scale-'));
  const proxyUrl = (service: ServiceName) => `http://127.0.0.1:${ports.frontend[service]}`;

  // A database of its own, dropped at stop: the run's rows can be checked without anyone else's.
  const databaseName = `exam_scale_${process.pid}_${Date.now()}`;
  const admin = postgres(opts.adminDatabaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${databaseName}"`);
  const databaseUrl = new URL(opts.adminDatabaseUrl);
  databaseUrl.pathname = `/${databaseName}`;

  const creatorOrigin = opts.web ? `http://localhost:${opts.web.creatorPort}` : 'http://localhost:5173';
  const takerOrigin = opts.web ? `http://localhost:${opts.web.takerPort}` : 'http://localhost:5174';
  // Explicit secrets, the same for every replica: nothing is generated per process.
  const shared: Record<string, string> = {
    DATABASE_URL: databaseUrl.toString(),
    JWT_SECRET: randomBytes(32).toString('base64url'),
    INTERNAL_TOKEN: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    REQUIRE_EXPLICIT_SECRETS: 'true',
    DATA_DIR: join(workDir, 'data'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CREATOR_ORIGIN: creatorOrigin,
    TAKER_ORIGIN: takerOrigin,
    WORKSPACE_ORIGIN: `http://localhost:${ports.workspaceFrontend}`,
    OPENAI_BASE_URL: opts.openAiBaseUrl,
    OPENAI_API_KEY: opts.openAiApiKey ?? 'sk-scale-server-default-key',
    // Every simulated candidate comes from 127.0.0.1: the per-address start limit would refuse the 151st.
    START_LIMIT_PER_CLIENT: '100000',
    START_LIMIT_PER_EXAM: '100000',
    // No Docker engine here: no workspace pool is kept warm (the orchestrator still serves and answers /ready).
    DOCKER_SOCKET: join(workDir, 'no-docker.sock'),
    WARM_POOL_SIZE: '0',
    ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
    ...Object.fromEntries(SERVICES.map((s) => [`${serviceEnvPrefix(s)}_URL`, proxyUrl(s)])),
    ...opts.env,
  };

  const replicas: Replica[] = SERVICES.flatMap((service) =>
    Array.from({ length: replicasPerService }, (_v, index) => ({
      service,
      index,
      port: ports.replica(service, index),
      ...(service === 'workspace-orchestrator' ? { workspacePort: ports.workspace(index) } : {}),
      logFile: join(workDir, `${service}-${index}.log`),
    })),
  );
  const others: { name: string; child: ChildProcess; logFile: string }[] = [];

  function spawnLogged(command: string, args: string[], cwd: string, env: Record<string, string>, logFile: string) {
    const out = createWriteStream(logFile, { flags: 'a' });
    // Its own process group, so a kill reaches everything the process started.
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
    return child;
  }

  function launch(replica: Replica) {
    replica.child = spawnLogged(
      process.execPath,
      ['src/server.ts'],
      join(ROOT, 'services', replica.service),
      {
        ...shared,
        PORT: String(replica.port),
        ...(replica.workspacePort !== undefined
          ? { WORKSPACE_PORT: String(replica.workspacePort), WORKSPACE_HOST_ID: `scale-${replica.index}` }
          : {}),
      },
      replica.logFile,
    );
  }

  const readyUrl = (replica: Replica) => `http://127.0.0.1:${replica.port}/ready`;
  async function waitReady(replica: Replica, timeoutMs = 120_000) {
    try {
      await waitFor(readyUrl(replica), {
        timeoutMs,
        child: replica.child,
        what: `${replica.service}#${replica.index}`,
      });
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- ${replica.logFile}\n${tail(replica.logFile)}`);
    }
  }

  const haproxyFile = join(workDir, 'haproxy.cfg');
  const backends: ProxiedBackend[] = [
    ...SERVICES.map((service) => ({
      name: service,
      frontendPort: ports.frontend[service],
      replicaPorts: replicas.filter((r) => r.service === service).map((r) => r.port),
      healthPath: '/ready',
    })),
    {
      name: 'workspace' as const,
      frontendPort: ports.workspaceFrontend,
      replicaPorts: replicas.flatMap((r) => (r.workspacePort === undefined ? [] : [r.workspacePort])),
    },
  ];
  writeFileSync(haproxyFile, haproxyConfig(backends, { statsPort: ports.stats }));

  /** Stops everything and drops the database; `keepLogs` leaves the replicas' logs in workDir for a post-mortem. */
  async function stop(stopOpts: { keepLogs?: boolean } = {}) {
    for (const child of [...replicas.map((r) => r.child), ...others.map((o) => o.child)]) signalGroup(child, 'SIGTERM');
    const all = [...replicas.flatMap((r) => (r.child ? [r.child] : [])), ...others.map((o) => o.child)];
    await Promise.all(all.map((child) => exited(child, 10_000)));
    for (const child of all) signalGroup(child, 'SIGKILL');
    await admin.unsafe(`drop database if exists "${databaseName}" with (force)`).catch(() => undefined);
    await admin.end();
    if (stopOpts.keepLogs) log(`[scale] logs kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }

  try {
    const check = spawnSync('haproxy', ['-c', '-q', '-f', haproxyFile], { encoding: 'utf8' });
    if (check.error || check.status !== 0)
      throw new Error(`haproxy is missing or rejects its configuration: ${check.error?.message ?? check.stderr}`);
    const haproxyLog = join(workDir, 'haproxy.log');
    others.push({
      name: 'haproxy',
      child: spawnLogged('haproxy', ['-db', '-f', haproxyFile], workDir, {}, haproxyLog),
      logFile: haproxyLog,
    });

    const started = Date.now();
    for (const replica of replicas) launch(replica);
    await Promise.all(replicas.map((replica) => waitReady(replica)));
    // Both replicas of every service are in its backend's rotation before anyone is let in.
    const haproxy = others[0]!.child;
    await Promise.all(
      SERVICES.map((s) =>
        waitFor(`${proxyUrl(s)}/ready`, { timeoutMs: 10_000, child: haproxy, what: `haproxy (${s})` }),
      ),
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${tail(haproxyLog)}`);
    });
    await waitServersUp();
    log(`[scale] ${replicas.length} replicas ready behind haproxy in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    if (opts.web) {
      for (const [app, port] of [
        ['creator-web', opts.web.creatorPort],
        ['taker-web', opts.web.takerPort],
      ] as const) {
        const logFile = join(workDir, `${app}.log`);
        const child = spawnLogged(
          process.execPath,
          [join(ROOT, 'packages', 'web-server', 'src', 'server.ts'), app],
          join(ROOT, 'apps', app),
          { ...shared, CREATOR_WEB_PORT: String(opts.web.creatorPort), TAKER_WEB_PORT: String(opts.web.takerPort) },
          logFile,
        );
        others.push({ name: app, child, logFile });
        await waitFor(`http://localhost:${port}/runtime-config.json`, { timeoutMs: 30_000, child, what: app });
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }

  /**
   * haproxy's view (its stats page as CSV): each server's state ('UP', 'DOWN', 'UP 1/2'…) and, per backend,
   * the requests it sent again (wretr) and sent again to another server (wredis).
   */
  async function proxyStats() {
    const csv = await (await fetch(`http://127.0.0.1:${ports.stats}/stats;csv`)).text();
    const states = new Map<string, string>();
    const retries: Record<string, { retries: number; redispatches: number }> = {};
    for (const line of csv.split('\n')) {
      const [proxy, server, ...fields] = line.split(',');
      if (!proxy || !server || proxy.startsWith('#') || server === 'FRONTEND') continue;
      if (server === 'BACKEND') retries[proxy] = { retries: Number(fields[13]), redispatches: Number(fields[14]) };
      else states.set(`${proxy}/${server}`, fields[15] ?? '');
    }
    return { states, retries };
  }
  async function serverStates() {
    return (await proxyStats()).states;
  }

  async function waitServersUp(timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await serverStates().catch(() => new Map<string, string>());
      const down = replicas.filter((r) => states.get(`${r.service}/r${r.index}`) !== 'UP');
      if (!down.length) return;
      if (Date.now() > deadline)
        throw new Error(`haproxy still counts ${down.map((r) => `${r.service}#${r.index}`).join(', ')} down`);
      await sleep(100);
    }
  }

  const find = (service: ServiceName, index: number) => {
    const replica = replicas.find((r) => r.service === service && r.index === index);
    if (!replica) throw new Error(`no replica ${service}#${index}`);
    return replica;
  };

  return {
    databaseUrl: databaseUrl.toString(),
    databaseName,
    proxyUrl,
    creatorOrigin,
    takerOrigin,
    replicas,
    workDir,
    serverStates,
    proxyStats,
    /** Resolves once haproxy counts every replica UP again. */
    waitServersUp,
    /** SIGKILL to the replica's whole process group: no drain, no goodbye, sockets reset by the kernel. */
    async kill(service: ServiceName, index: number) {
      const replica = find(service, index);
      if (!replica.child) return;
      signalGroup(replica.child, 'SIGKILL');
      await exited(replica.child, 5000);
    },
    /** Starts the replica again on the same port and waits until it answers /ready and haproxy counts it UP. */
    async restart(service: ServiceName, index: number) {
      const replica = find(service, index);
      if (alive(replica.child)) throw new Error(`${service}#${index} is still running`);
      launch(replica);
      await waitReady(replica);
      await waitServersUp();
    },
    stop,
  };
}
