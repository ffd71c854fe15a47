import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
/** Polls a URL until it answers 2xx, or gives up at the deadline (or when `stopped()` says so). */
export async function waitFor(url: string, timeoutMs: number, stopped: () => boolean = () => false): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && !stopped()) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.body?.cancel();
      if (response.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

export type Stage = { name: string; url: string };

/**
 * The order `pnpm start` keeps: the web servers start only once every service answers its readiness check
 * (/ready: listening, migrations applied, database reachable), so the apps never take traffic the platform
 * cannot serve. Returns the names that did not become ready; `startWeb` is not called if there are any.
 */
export async function startInOrder(opts: {
  services: Stage[];
  startWeb: () => Stage[];
  timeoutMs: number;
  stopped?: () => boolean;
}): Promise<string[]> {
  const ready = async (stages: Stage[]) =>
    (await Promise.all(stages.map(async (s) => [s.name, await waitFor(s.url, opts.timeoutMs, opts.stopped)] as const)))
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
  const servicesFailed = await ready(opts.services);
  if (servicesFailed.length) return servicesFailed;
  return ready(opts.startWeb());
}

/** Builds both web apps' bundles (turbo: a cache hit when nothing changed); exits the process when the build fails. */
export function buildWebApps(root: string): void {
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
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** Polls a TCP port until it accepts a connection, or gives up at the deadline (or when `stopped()` says so). */
export async function waitForPort(
  host: string,
  port: number,
  timeoutMs: number,
  stopped: () => boolean = () => false,
): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && !stopped()) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

export type EmbeddedDatabase =
  { mode: 'external' } | { mode: 'per-service' } | { mode: 'shared'; port: number; url: string };

/**
 * Where `pnpm start`'s services keep their data: the PostgreSQL of DATABASE_URL when set; otherwise one embedded
 * database served to all of them on `port` by packages/embedded-postgres (PostgreSQL's own binaries in
 * DATA_DIR/postgresql, or PGlite in DATA_DIR/postgres: its engine.ts chooses). A data directory that already
 * holds one PGlite per service (DATA_DIR/<service>/PG_VERSION, the layout before) and no shared database keeps
 * its layout: each service opens its own PGlite as it did, so that data is not left behind.
 */
export function embeddedDatabase(opts: {
  databaseUrl: string | undefined;
  dataDir: string;
  services: readonly string[];
  port: number;
  exists: (path: string) => boolean;
}): EmbeddedDatabase {
  if (opts.databaseUrl) return { mode: 'external' };
  const shared = ['postgresql', 'postgres'].some((folder) => opts.exists(join(opts.dataDir, folder, 'PG_VERSION')));
  const perService = opts.services.some((s) => opts.exists(join(opts.dataDir, s, 'PG_VERSION')));
  if (perService && !shared) return { mode: 'per-service' };
  return { mode: 'shared', port: opts.port, url: `postgres://postgres@127.0.0.1:${opts.port}/postgres` };
}
