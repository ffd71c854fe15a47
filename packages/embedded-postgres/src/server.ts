// The embedded database on its own: `node packages/embedded-postgres/src/server.ts`. scripts/start.ts starts it
// when DATABASE_URL is not set and points every service's DATABASE_URL at it, each service keeping its own
// schema as on any PostgreSQL. Settings: EMBEDDED_POSTGRES_PORT (4032), EMBEDDED_POSTGRES_HOST (127.0.0.1),
// DATA_DIR, EMBEDDED_DB (engine.ts): PostgreSQL's binaries (files in DATA_DIR/postgresql, native.ts) by
// default, or PGlite served over the wire protocol (files in DATA_DIR/postgres, wire.ts).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chooseEngine, ENGINE_FOLDERS } from './engine.ts';
import { nativeAvailable, startNative } from './native.ts';

const env = process.env;
const dataDir = resolve(env.DATA_DIR ?? '.data');
const host = env.EMBEDDED_POSTGRES_HOST ?? '127.0.0.1';
const port = Number(env.EMBEDDED_POSTGRES_PORT ?? 4032);
const { engine, note } = chooseEngine({
  requested: env.EMBEDDED_DB,
  dataDir,
  exists: existsSync,
  native: nativeAvailable,
});
if (note) console.log(note);
const dir = join(dataDir, ENGINE_FOLDERS[engine]);
// Says the database is open: `pnpm backup` and `pnpm restore` read it and refuse to copy or replace the files of a
// running database. See docs/backup.md.
const pidFile = join(dataDir, 'embedded-postgres.pid');
mkdirSync(dataDir, { recursive: true });
writeFileSync(pidFile, `${process.pid}\n`);

let close: () => Promise<void>;
if (engine === 'postgres') {
  const server = await startNative({ dir, port, host, log: (line) => console.error(line) });
  close = server.stop;
  // The server stopping on its own (killed, out of disk) stops the platform: start.ts sees this process exit.
  void server.exited.then((code) => {
    if (!stopping) {
      console.error(`PostgreSQL exited (${code})`);
      rmSync(pidFile, { force: true });
      process.exit(1);
    }
  });
  console.log(`Embedded PostgreSQL ready on port ${port}, files in ${dir}`);
} else {
  const { PGlite } = await import('@electric-sql/pglite');
  const { serveOverWire } = await import('./wire.ts');
  const existed = existsSync(join(dir, 'PG_VERSION'));
  mkdirSync(dir, { recursive: true });
  let db = await PGlite.create(dir);
  if (!existed) {
    // Creating the database (its initdb) leaves ~300 MB more resident than opening an existing one does, for as
    // long as the process lives: on the first start, close it, open it again and, when Node runs with
    // --expose-gc (scripts/start.ts starts it so), collect the first instance now rather than at some later full
    // collection that an idle process may never reach.
    await db.close();
    db = await PGlite.create(dir);
    (globalThis as { gc?: () => void }).gc?.();
  }
  const server = await serveOverWire(db, { host, port, slowTransactionMs: 10_000 });
  close = async () => {
    await server.close();
    // Closing PGlite writes what it holds in memory out to the files: without it the last changes may be lost.
    await db.close();
  };
  console.log(`Embedded PostgreSQL (PGlite) ready on port ${server.port}, files in ${dir}`);
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await close();
  rmSync(pidFile, { force: true });
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
