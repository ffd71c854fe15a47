// The platform as `pnpm start` runs it on the embedded default (one database served by packages/embedded-postgres, the
// four services on it, generated secrets, mail to DATA_DIR/outbox), on free ports or on eight fixed ones, with or
// without the two web apps (their built bundles, never rebuilt here): what backup.test.ts and the backup journey
// (apps/e2e/tests/backup-restore.spec.ts) back up, stop, restore and start again.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SERVICES, serviceEnvPrefix, type ServiceName } from '../packages/domain/src/service-routes.ts';
import { ROOT } from './backup-archive.ts';
import { waitFor, waitForPort } from './start-order.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const exited = (child: ChildProcess, ms: number) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : Promise.race([new Promise<void>((r) => child.once('exit', () => r())), new Promise((r) => setTimeout(r, ms))]);

/** Whether nothing listens on a port of this machine (a fixed port taken by someone else would pass every wait). */
async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

export type StackOptions = {
  dataDir: string;
  logDir: string;
  openAiBaseUrl: string;
  /**
   * The first of eight consecutive ports: the database, the four services, the workspace editors, creator-web and
   * taker-web. A browser keeps what it stored per origin, so a platform restarted for it must come back on the same
   * ports. Free ports when left out.
   */
  basePort?: number;
  /** Serves the two web apps too, from the bundles `pnpm start` (or `pnpm build`) left in apps/<app>/dist. */
  web?: boolean;
  /** More of the platform's settings (OPENAI_API_KEY, …). */
  env?: Record<string, string>;
};

const WEB_APPS = ['creator-web', 'taker-web'] as const;
/** As scripts/start.ts runs the embedded default: small young generations, V8's optimize-for-size mode. */
const NODE_FLAGS = ['--max-semi-space-size=1', '--optimize-for-size'];

export async function startStack(opts: StackOptions) {
  const fixed = opts.basePort;
  const names = ['embedded-postgres', ...SERVICES, 'workspace', ...WEB_APPS] as const;
  const portList =
    fixed === undefined ? await Promise.all(names.map(() => freePort())) : names.map((_, i) => fixed + i);
  if (fixed !== undefined) {
    const taken = (await Promise.all(portList.map(async (p) => ((await isFree(p)) ? undefined : p)))).filter(Boolean);
    if (taken.length) throw new Error(`Ports in use, the platform cannot start on them: ${taken.join(', ')}`);
  }
  const portOf = Object.fromEntries(names.map((n, i) => [n, portList[i]!])) as Record<(typeof names)[number], number>;
  const databasePort = portOf['embedded-postgres'];
  const url = (s: ServiceName) => `http://127.0.0.1:${portOf[s]}`;
  const creatorOrigin = `http://localhost:${portOf['creator-web']}`;
  const takerOrigin = `http://localhost:${portOf['taker-web']}`;
  if (opts.web)
    for (const app of WEB_APPS)
      if (!existsSync(join(ROOT, 'apps', app, 'dist', 'index.html')))
        throw new Error(`apps/${app}/dist is not built: run \`pnpm build\` (or \`pnpm start\` once) first`);
  // Only what the platform needs: no DATABASE_URL, REDIS_URL or provider key leaks in from the test's environment.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATA_DIR: opts.dataDir,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    CREATOR_ORIGIN: creatorOrigin,
    TAKER_ORIGIN: takerOrigin,
    CREATOR_WEB_PORT: String(portOf['creator-web']),
    TAKER_WEB_PORT: String(portOf['taker-web']),
    WORKSPACE_PORT: String(portOf.workspace),
    WORKSPACE_ORIGIN: `http://localhost:${portOf.workspace}`,
    OPENAI_BASE_URL: opts.openAiBaseUrl,
    // No Docker engine is needed: no workspace pool is kept warm (the orchestrator still serves and answers /ready).
    DOCKER_SOCKET: join(opts.logDir, 'no-docker.sock'),
    WARM_POOL_SIZE: '0',
    ...Object.fromEntries(SERVICES.map((s) => [`${serviceEnvPrefix(s)}_URL`, url(s)])),
    ...opts.env,
  };
  const children: { name: string; child: ChildProcess; log: string }[] = [];
  const launch = (name: string, cwd: string, args: string[], extra: Record<string, string>) => {
    const log = join(opts.logDir, `${name}-${Date.now()}.log`);
    const out = createWriteStream(log);
    const child = spawn(process.execPath, [...NODE_FLAGS, ...args], {
      cwd,
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
    children.push({ name, child, log });
  };
  const logs = () => children.map((c) => `--- ${c.name}\n${readFileSync(c.log, 'utf8').slice(-2000)}`).join('\n');

  async function stop() {
    // As scripts/start.ts: the web apps and services first, the database last, so it writes its files out and
    // closes them.
    const db = children.filter((c) => c.name === 'embedded-postgres');
    const others = children.filter((c) => c.name !== 'embedded-postgres');
    const alive = ({ child }: { child: ChildProcess }) => child.exitCode === null && child.signalCode === null;
    const signal = (group: typeof children, sig: NodeJS.Signals) => {
      for (const { child } of group.filter(alive)) {
        try {
          if (child.pid) process.kill(-child.pid, sig);
        } catch {
          // gone in the meantime
        }
      }
    };
    for (const group of [others, db]) {
      signal(group, 'SIGTERM');
      await Promise.all(group.map(({ child }) => exited(child, 15_000)));
    }
    signal(children, 'SIGKILL');
  }

  /** A start that failed stops what it started: nothing is left holding the ports or the data folder. */
  const fail = async (what: string): Promise<never> => {
    const text = logs();
    await stop();
    throw new Error(`${what}\n${text}`);
  };

  // As scripts/start.ts: the database first, then the services, each on its own schema of it, then the web apps.
  launch('embedded-postgres', join(ROOT, 'packages', 'embedded-postgres'), ['--expose-gc', 'src/server.ts'], {
    EMBEDDED_POSTGRES_PORT: String(databasePort),
  });
  if (!(await waitForPort('127.0.0.1', databasePort, 120_000))) await fail('database did not start');
  for (const s of SERVICES)
    launch(s, join(ROOT, 'services', s), ['src/server.ts'], {
      PORT: String(portOf[s]),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${databasePort}/postgres`,
    });
  const ready = await Promise.all(SERVICES.map((s) => waitFor(`${url(s)}/ready`, 180_000)));
  if (ready.includes(false)) await fail('services did not become ready');
  if (opts.web) {
    for (const app of WEB_APPS)
      launch(app, join(ROOT, 'apps', app), [join(ROOT, 'packages', 'web-server', 'src', 'server.ts'), app], {});
    const served = await Promise.all(
      [creatorOrigin, takerOrigin].map((origin) => waitFor(`${origin}/runtime-config.json`, 60_000)),
    );
    if (served.includes(false)) await fail('the web apps did not start');
  }

  return { url, creatorOrigin, takerOrigin, logs, stop };
}
