import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { NotReadyError } from './not-ready.ts';
import { traceDatabaseClient } from './tracing.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db<S extends Record<string, unknown> = Record<string, any>> = PgDatabase<PgQueryResultHKT, S>;

export type Database<S extends Record<string, unknown>> = {
  db: Db<S>;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  /** Applies the pending migrations (on PostgreSQL one replica at a time, see oneMigrationAtATime). */
  migrate(): Promise<void>;
  /** The committed migrations this database has not applied yet, by tag (`0007_add_x`), oldest first. */
  pendingMigrations(): Promise<string[]>;
  close(): Promise<void>;
};

export type OpenDatabaseOptions<S extends Record<string, unknown>> = {
  schema: S;
  /** PostgreSQL URL; when absent, PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite directory; absent means in memory. */
  pgliteDir?: string | undefined;
  /** An already open PGlite instance (tests share one per process). */
  pglite?: PGlite | undefined;
  poolSize?: number;
  migrationsFolder: string;
  /** The service's PostgreSQL schema; names its migration journal, drizzle.__<schema>_migrations. */
  migrationsSchema: string;
  /**
   * Apply pending migrations before returning (default). False (MIGRATE_ON_START=false) leaves them to
   * the service's `src/migrate.ts`, run once per deployment; the database then only reports what is pending.
   */
  migrate?: boolean;
};

type JournalEntry = { tag: string; when: number };

/** drizzle-kit's journal of the committed migrations (meta/_journal.json), oldest first. */
function readJournal(migrationsFolder: string): JournalEntry[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/**
 * drizzle's migrator applies every committed migration whose folder time (`when` in the journal) is
 * later than the newest `created_at` in the database's journal table; the same comparison gives what it
 * would apply now. A database without the table has applied nothing.
 */
async function pendingOf(db: Db, migrationsFolder: string, table: string): Promise<string[]> {
  const entries = readJournal(migrationsFolder);
  const [journal] = await rowsOf<{ found: string | null }>(
    db,
    sql`select to_regclass(${`drizzle.${table}`})::text as found`,
  );
  if (!journal?.found) return entries.map((e) => e.tag);
  const [latest] = await rowsOf<{ at: string | null }>(
    db,
    sql`select max(created_at)::text as at from ${sql.identifier('drizzle')}.${sql.identifier(table)}`,
  );
  const appliedUntil = Number(latest?.at ?? 0);
  return entries.filter((e) => e.when > appliedUntil).map((e) => e.tag);
}

/** postgres.js answers an array of rows, PGlite `{ rows }`. */
async function rowsOf<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * The /ready check of a service's schema: throws NotReadyError naming the pending migrations. Once none is
 * pending the answer is kept, since this process's code cannot gain migrations while it runs.
 */
export function schemaCheck(database: Pick<Database<Record<string, unknown>>, 'pendingMigrations'>) {
  let current = false;
  return async () => {
    if (current) return;
    const pending = await database.pendingMigrations();
    if (pending.length) throw new NotReadyError(`pending migrations: ${pending.join(', ')}`);
    current = true;
  };
}

/**
 * Replicas of a service that start together would each apply the same pending migrations and fail on each
 * other's tables, and different services starting together on an empty database race on the "drizzle" schema
 * every journal lives in (each runs CREATE SCHEMA IF NOT EXISTS, which is not safe concurrently: a unique
 * violation, found by starting infra/compose.yaml for real). So every service's migrations take turns under one
 * PostgreSQL advisory lock, held on a connection of its own (the migrations run on the pool): the first applies
 * its own, the next replica of it finds its journal current and applies nothing. Migrations take seconds, so the
 * wait is short.
 */
async function oneMigrationAtATime(url: string, migrate: () => Promise<void>): Promise<void> {
  const lock = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await lock`select pg_advisory_lock(hashtext('exam.migrations'))`;
    await migrate();
  } finally {
    // Ending the session releases the lock, also when a migration failed.
    await lock.end({ timeout: 5 });
  }
}

/** Opens the service's database and, unless `migrate` is false, applies its committed migrations. */
export async function openDatabase<S extends Record<string, unknown>>(
  opts: OpenDatabaseOptions<S>,
): Promise<Database<S>> {
  const database = await connect(opts);
  if (opts.migrate !== false) {
    try {
      await database.migrate();
    } catch (err) {
      await database.close();
      throw err;
    }
  }
  return database;
}

async function connect<S extends Record<string, unknown>>(opts: OpenDatabaseOptions<S>): Promise<Database<S>> {
  // Each service keeps its own journal table so several services can share one PostgreSQL database.
  const migrationConfig = {
    migrationsFolder: opts.migrationsFolder,
    migrationsSchema: 'drizzle',
    migrationsTable: `__${opts.migrationsSchema}_migrations`,
  };
  const pendingMigrations = (db: Db) => () => pendingOf(db, opts.migrationsFolder, migrationConfig.migrationsTable);
  if (opts.databaseUrl) {
    const url = opts.databaseUrl;
    // Query spans when tracing runs (src/tracing.ts); PGlite is one process's embedded database and has none.
    const client = traceDatabaseClient(postgres(url, { max: opts.poolSize ?? 10, onnotice: () => {} }));
    const db = drizzlePostgres({ client, schema: opts.schema });
    return {
      db: db as unknown as Db<S>,
      kind: 'postgres',
      ping: async () => void (await db.execute(sql`select 1`)),
      migrate: () => oneMigrationAtATime(url, () => migratePostgres(db, migrationConfig)),
      pendingMigrations: pendingMigrations(db as unknown as Db),
      close: () => client.end({ timeout: 5 }),
    };
  }
  const owned = !opts.pglite;
  if (opts.pgliteDir) mkdirSync(opts.pgliteDir, { recursive: true });
  const client = opts.pglite ?? (await PGlite.create(opts.pgliteDir));
  const db = drizzlePglite({ client, schema: opts.schema });
  return {
    db: db as unknown as Db<S>,
    kind: 'pglite',
    ping: async () => void (await db.execute(sql`select 1`)),
    migrate: () => migratePglite(db, migrationConfig),
    pendingMigrations: pendingMigrations(db as unknown as Db),
    close: async () => {
      if (owned) await client.close();
    },
  };
}

type PostgresJsClient = { unsafe(text: string, params: unknown[], opts: { prepare: boolean }): Promise<unknown[]> };
type PgliteClient = { query(text: string, params: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * A parameterised statement sent straight to the driver, prepared once per connection on PostgreSQL: one round trip
 * (Bind + Execute) from then on. drizzle's `execute` goes through postgres.js's `unsafe` without `prepare`, which
 * describes every statement that has parameters before running it (two round trips), and building a query through
 * drizzle costs CPU of its own. For the few hot paths only (autosave, submit, the assistant's admission). Pass
 * timestamps as ISO strings cast in SQL and read them back as epoch milliseconds or text: postgres.js leaves
 * timestamps as text under drizzle while PGlite returns Dates.
 */
export async function rawQuery<T>(db: Db, text: string, params: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: PostgresJsClient | PgliteClient }).$client;
  if ('unsafe' in client) return (await client.unsafe(text, params, { prepare: true })) as T[];
  return (await client.query(text, params)).rows as T[];
}
