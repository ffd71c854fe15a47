// The embedded database on its own: `node packages/embedded-postgres/src/server.ts`. scripts/start.ts starts it
// when DATABASE_URL is not set and points every service's DATABASE_URL at it, each service keeping its own
// schema as on a real PostgreSQL. Settings: EMBEDDED_POSTGRES_PORT (4032), EMBEDDED_POSTGRES_HOST (127.0.0.1),
// DATA_DIR (the files go in DATA_DIR/postgres).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { serveOverWire } from './wire.ts';

const env = process.env;
const dir = resolve(env.DATA_DIR ?? '.data', 'postgres');
// Says the database is open: `pnpm backup` and `pnpm restore` read it and refuse to copy or replace the files of a
// running database (a second PGlite on the same files would see a torn copy). See docs/backup.md.
const pidFile = resolve(env.DATA_DIR ?? '.data', 'embedded-postgres.pid');
const existed = existsSync(join(dir, 'PG_VERSION'));
mkdirSync(dir, { recursive: true });
writeFileSync(pidFile, `${process.pid}\n`);
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
const server = await serveOverWire(db, {
  host: env.EMBEDDED_POSTGRES_HOST ?? '127.0.0.1',
  port: Number(env.EMBEDDED_POSTGRES_PORT ?? 4032),
  slowTransactionMs: 10_000,
});
console.log(`Embedded PostgreSQL (PGlite) ready on port ${server.port}, files in ${dir}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close();
  // Closing PGlite writes what it holds in memory out to the files: without it the last changes may be lost.
  await db.close();
  rmSync(pidFile, { force: true });
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
