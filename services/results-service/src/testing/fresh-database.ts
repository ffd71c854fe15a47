import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '@exam/server-kit/db';
import { openTestDatabase, testDatabaseKind } from '@exam/server-kit/testing';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../db/database.ts';
import * as schema from '../db/schema.ts';

type Journal = { entries: { idx: number; tag: string }[] };

/**
 * A database of its own (PGlite in a temporary directory, or a new database on the PostgreSQL server of
 * test:pg), for tests that start from an older schema. `open(upTo)` applies the committed migrations up to
 * and including the tag `upTo` (all of them without it), as a deployment of that version would; close
 * the handle before opening the next, as a restart does.
 */
export async function createFreshDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'results-fresh-'));
  const name = `results_fresh_${process.pid}_${Date.now()}`;
  const onPostgres = testDatabaseKind() === 'postgres';
  // CREATE DATABASE runs on the suite's own connection; it cannot run inside a transaction, and execute() is not in one.
  const server = onPostgres
    ? await openTestDatabase({ schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA })
    : undefined;
  let url: string | undefined;
  if (server) {
    await server.db.execute(sql.raw(`create database "${name}"`));
    const target = new URL(process.env.TEST_DB_URL as string);
    target.pathname = `/${name}`;
    url = target.toString();
  }

  function migrationsUpTo(tag: string): string {
    const folder = join(dir, `migrations-${tag}`);
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
    const last = journal.entries.findIndex((e) => e.tag === tag);
    if (last < 0) throw new Error(`no migration ${tag} in ${MIGRATIONS_FOLDER}`);
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
    return folder;
  }

  return {
    open(upTo?: string, opts: { migrate?: boolean } = {}): Promise<Database<typeof schema>> {
      return openDatabase({
        schema,
        migrationsFolder: upTo ? migrationsUpTo(upTo) : MIGRATIONS_FOLDER,
        migrationsSchema: MIGRATIONS_SCHEMA,
        ...(url ? { databaseUrl: url, poolSize: 2 } : { pgliteDir: join(dir, 'results-service') }),
        ...opts,
      });
    },
    /** The environment under which the service (or src/migrate.ts) opens this database. */
    env: url ? { DATABASE_URL: url } : { DATA_DIR: dir },
    async drop() {
      if (server) await server.db.execute(sql.raw(`drop database if exists "${name}" with (force)`));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
