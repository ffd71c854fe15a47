import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pack } from 'tar-stream';
import type { CatalogueEntry } from '@exam/domain/workspace';
import { editorPasswordHash, type WorkspaceEngine, type WorkspaceSpec } from './engine.ts';

/** What a local editor may inherit from the orchestrator's environment: never its secrets or database URL. */
const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TERM', 'SHELL', 'USER', 'LOGNAME', 'TMPDIR'];

/**
 * The environment of one local editor process: a short allowlist of the orchestrator's own (locale, PATH)
 * plus the session's password hash and its own HOME. The orchestrator's environment holds JWT_SECRET,
 * INTERNAL_TOKEN, ENCRYPTION_KEY and DATABASE_URL, and a candidate's terminal in the editor can read its env.
 */
export function editorEnvironment(source: NodeJS.ProcessEnv, home: string, password: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED) if (source[name] !== undefined) env[name] = source[name];
  return { ...env, HOME: home, HASHED_PASSWORD: editorPasswordHash(password) };
}

/**
 * The laptop fallback: one code-server process per session, bound to 127.0.0.1 on a free port and
 * reached only through the proxy. No container isolation, so it is for `pnpm start` without Docker,
 * never for a real exam.
 */
export function createLocalEngine(opts: { binary: string; dir: string; hostId?: string }): WorkspaceEngine {
  const freePort = () =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });

  /** A 'volume' is a folder that outlives the session's process, like the engine's named volume. */
  const volumeFolder = (volume: string) => join(opts.dir, 'volumes', volume, 'workspace');

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  return {
    kind: 'local',
    // Local editors are processes of this machine: its name tells the hosts apart.
    hostId: async () => opts.hostId ?? `local:${hostname()}`,
    async unavailableReason() {
      return existsSync(opts.binary) || !opts.binary.includes('/')
        ? undefined
        : { kind: 'not-configured', detail: `code-server was not found at ${opts.binary}` };
    },
    async entryUnavailableReason() {
      return undefined;
    },
    async start(spec: WorkspaceSpec) {
      const home = join(opts.dir, spec.id);
      const workspace = volumeFolder(spec.volume.name);
      mkdirSync(home, { recursive: true });
      mkdirSync(workspace, { recursive: true });
      const port = await freePort();
      const log = openSync(join(home, 'code-server.log'), 'a');
      const child = spawn(
        opts.binary,
        [
          '--bind-addr',
          `127.0.0.1:${port}`,
          '--auth',
          'password',
          '--disable-telemetry',
          '--disable-update-check',
          '--user-data-dir',
          join(home, 'data'),
          '--extensions-dir',
          join(home, 'extensions'),
          workspace,
        ],
        { detached: true, stdio: ['ignore', log, log], env: editorEnvironment(process.env, home, spec.password) },
      );
      child.unref();
      if (!child.pid) throw new Error(`cannot start ${opts.binary}`);
      return { handle: String(child.pid), target: `127.0.0.1:${port}` };
    },
    async isRunning(handle: string) {
      return alive(Number(handle));
    },
    async remove(handle: string) {
      const pid = Number(handle);
      if (!alive(pid)) return;
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        process.kill(pid, 'SIGTERM');
      }
    },
    async list() {
      return [];
    },
    async archiveWorkspace(workspace: { volume: string }) {
      return packFolder(volumeFolder(workspace.volume));
    },
    async archiveVolume<T>(volume: string, _entry: CatalogueEntry, read: (tar: NodeJS.ReadableStream) => Promise<T>) {
      return read(packFolder(volumeFolder(volume)));
    },
    async removeVolume(volume: string) {
      rmSync(join(opts.dir, 'volumes', volume), { recursive: true, force: true });
    },
    async listVolumes() {
      return [];
    },
    async close() {},
  };
}

/** A tar of a folder shaped like the engine's archive API: entries under the folder's own name; links stay links. */
function packFolder(root: string): NodeJS.ReadableStream {
  const tar = pack();
  const base = root.split('/').filter(Boolean).pop() ?? 'workspace';
  const walk = async (dir: string, prefix: string) => {
    for (const name of await readdir(dir)) {
      const full = join(dir, name);
      const stat = await lstat(full);
      const entryName = `${prefix}/${name}`;
      if (stat.isSymbolicLink())
        tar.entry({ name: entryName, type: 'symlink', linkname: await readlink(full), mtime: stat.mtime });
      else if (stat.isDirectory()) {
        tar.entry({ name: entryName, type: 'directory', mtime: stat.mtime });
        await walk(full, entryName);
      } else if (stat.isFile())
        tar.entry({ name: entryName, size: stat.size, mtime: stat.mtime }, await readFile(full));
    }
  };
  walk(root, base).then(
    () => tar.finalize(),
    (err: unknown) => tar.destroy(err as Error),
  );
  return tar as unknown as NodeJS.ReadableStream;
}
