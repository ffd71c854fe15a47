// The platform as `pnpm start` runs it on the embedded default (one database served by packages/embedded-postgres, the
// four services on it, generated secrets, mail to DATA_DIR/outbox), without the web apps, on free ports: what
// backup.test.ts backs up, stops, restores and starts again.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
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

export type Stack = Awaited<ReturnType<typeof startStack>>;

export async function startStack(opts: { dataDir: string; logDir: string; openAiBaseUrl: string }) {
  const databasePort = await freePort();
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)));
  const workspacePort = await freePort();
  const url = (s: ServiceName) => `http://127.0.0.1:${ports[s]}`;
  // Only what the platform needs: no DATABASE_URL, REDIS_URL or provider key leaks in from the test's environment.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATA_DIR: opts.dataDir,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    CREATOR_ORIGIN: 'http://localhost:5173',
    TAKER_ORIGIN: 'http://localhost:5174',
    WORKSPACE_PORT: String(workspacePort),
    WORKSPACE_ORIGIN: `http://localhost:${workspacePort}`,
    OPENAI_BASE_URL: opts.openAiBaseUrl,
    // No Docker engine is needed: no workspace pool is kept warm (the orchestrator still serves and answers /ready).
    DOCKER_SOCKET: join(opts.logDir, 'no-docker.sock'),
    WARM_POOL_SIZE: '0',
    ...Object.fromEntries(SERVICES.map((s) => [`${serviceEnvPrefix(s)}_URL`, url(s)])),
  };
  const children: { name: string; child: ChildProcess; log: string }[] = [];
  const launch = (name: string, cwd: string, extra: Record<string, string>) => {
    const log = join(opts.logDir, `${name}-${Date.now()}.log`);
    const out = createWriteStream(log);
    const child = spawn(process.execPath, ['src/server.ts'], {
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

  // As scripts/start.ts: the database first, then the services, each on its own schema of it.
  launch('embedded-postgres', join(ROOT, 'packages', 'embedded-postgres'), {
    EMBEDDED_POSTGRES_PORT: String(databasePort),
  });
  if (!(await waitForPort('127.0.0.1', databasePort, 60_000))) throw new Error(`database did not start\n${logs()}`);
  for (const s of SERVICES)
    launch(s, join(ROOT, 'services', s), {
      PORT: String(ports[s]),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${databasePort}/postgres`,
    });
  const ready = await Promise.all(SERVICES.map((s) => waitFor(`${url(s)}/ready`, 120_000)));
  if (ready.includes(false)) throw new Error(`services did not become ready\n${logs()}`);

  return {
    url,
    async stop() {
      // As scripts/start.ts: the services first, the database last, so it writes its files out and closes them.
      const [db, services] = [children.filter((c) => c.name === 'embedded-postgres'), children.slice(1)];
      for (const group of [services, db]) {
        for (const { child } of group) if (child.pid) process.kill(-child.pid, 'SIGTERM');
        await Promise.all(group.map(({ child }) => exited(child, 15_000)));
      }
      for (const { child } of children)
        if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    },
  };
}
