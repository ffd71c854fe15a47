import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pack } from 'tar-stream';
import type { WorkspaceEngine, WorkspaceSpec } from './engine.ts';

/**
 * The laptop fallback: one code-server process per session, bound to 127.0.0.1 on a free port and
 * reached only through the proxy. No container isolation, so it is for `pnpm start` without Docker,
 * never for a real exam.
 */
export function createLocalEngine(opts: { binary: string; dir: string }): WorkspaceEngine {
  const freePort = () =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });

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
    async unavailableReason() {
      return existsSync(opts.binary) || !opts.binary.includes('/') ? undefined : `code-server was not found at ${opts.binary}`;
    },
    async entryUnavailableReason() {
      return undefined;
    },
    async start(spec: WorkspaceSpec) {
      const home = join(opts.dir, spec.id);
      const workspace = join(home, 'workspace');
      mkdirSync(workspace, { recursive: true });
      const port = await freePort();
      const log = openSync(join(home, 'code-server.log'), 'a');
      const child = spawn(
        opts.binary,
        ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'password', '--disable-telemetry', '--disable-update-check', '--user-data-dir', join(home, 'data'), '--extensions-dir', join(home, 'extensions'), workspace],
        { detached: true, stdio: ['ignore', log, log], env: { ...process.env, PASSWORD: spec.password } },
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
    async archiveWorkspace(workspace: { id: string }) {
      return packFolder(join(opts.dir, workspace.id, 'workspace'));
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
      if (stat.isSymbolicLink()) tar.entry({ name: entryName, type: 'symlink', linkname: await readlink(full), mtime: stat.mtime });
      else if (stat.isDirectory()) {
        tar.entry({ name: entryName, type: 'directory', mtime: stat.mtime });
        await walk(full, entryName);
      } else if (stat.isFile()) tar.entry({ name: entryName, size: stat.size, mtime: stat.mtime }, await readFile(full));
    }
  };
  walk(root, base).then(
    () => tar.finalize(),
    (err: unknown) => tar.destroy(err as Error),
  );
  return tar as unknown as NodeJS.ReadableStream;
}
