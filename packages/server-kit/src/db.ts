import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { traceDatabaseClient } from './tracing.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db<S extends Record<string, unknown> = Record<string, any>> = PgDatabase<PgQueryResultHKT, S>;

export type Database<S extends Record<string, unknown>> = {
  db: Db<S>;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
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
};

/**
 * Replicas of a service that start together would each apply the same pending migrations and fail on each
 * other's tables. They take turns under a PostgreSQL advisory lock named after the service's journal, held on
 * a connection of its own (the migrations run on the pool): the first applies them, the next finds its journal
 * current and applies nothing.
 */
async function oneMigrationAtATime(url: string, journal: string, migrate: () => Promise<void>): Promise<void> {
  const lock = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await lock`select pg_advisory_lock(hashtext(${`exam.migrations.${journal}`}))`;
    await migrate();
  } finally {
    // Ending the session releases the lock, also when a migration failed.
    await lock.end({ timeout: 5 });
  }
}

/** Opens the service's database and applies its committed migrations. */
export async function openDatabase<S extends Record<string, unknown>>(
  opts: OpenDatabaseOptions<S>,
): Promise<Database<S>> {
  // Each service keeps its own journal table so several services can share one PostgreSQL database.
  const migrationConfig = {
    migrationsFolder: opts.migrationsFolder,
    migrationsSchema: 'drizzle',
    migrationsTable: `__${opts.migrationsSchema}_migrations`,
  };
  if (opts.databaseUrl) {
    // Query spans when tracing runs (src/tracing.ts); PGlite is one process's embedded database and has none.
    const client = traceDatabaseClient(postgres(opts.databaseUrl, { max: opts.poolSize ?? 10, onnotice: () => {} }));
    const db = drizzlePostgres({ client, schema: opts.schema });
    await oneMigrationAtATime(opts.databaseUrl, migrationConfig.migrationsTable, () =>
      migratePostgres(db, migrationConfig),
    );
    return {
      db: db as unknown as Db<S>,
      kind: 'postgres',
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => client.end({ timeout: 5 }),
    };
  }
  const owned = !opts.pglite;
  if (opts.pgliteDir) mkdirSync(opts.pgliteDir, { recursive: true });
  const client = opts.pglite ?? (await PGlite.create(opts.pgliteDir));
  const db = drizzlePglite({ client, schema: opts.schema });
  await migratePglite(db, migrationConfig);
  return {
    db: db as unknown as Db<S>,
    kind: 'pglite',
    ping: async () => void (await db.execute(sql`select 1`)),
    close: async () => {
      if (owned) await client.close();
    },
  };
}
