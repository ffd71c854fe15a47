import { join } from 'node:path';
import { z } from 'zod';
import { baseConfigShape, parseConfig } from './config.ts';
import type { Database } from './db.ts';

/** What applying migrations needs: the database, never the secrets (a migration Job holds none it does not use). */
const MigrateConfigSchema = z.object({
  DATABASE_URL: baseConfigShape.DATABASE_URL,
  DATA_DIR: baseConfigShape.DATA_DIR,
});

type OpenForMigration = (opts: {
  databaseUrl?: string;
  pgliteDir: string;
  poolSize: number;
  migrate: false;
}) => Promise<Pick<Database<Record<string, unknown>>, 'migrate' | 'pendingMigrations' | 'close'>>;

type Output = { out(line: string): void; err(line: string): void };
const stdio: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** The error and what caused it: drizzle wraps the driver's error ("connect ECONNREFUSED…") in "Failed query". */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  return cause && !err.message.includes(cause) ? `${err.message.split('\n')[0]}: ${cause}` : err.message;
}

/**
 * A service's `src/migrate.ts`: applies its pending migrations through the same path as a start with
 * MIGRATE_ON_START (openDatabase, under the advisory lock on PostgreSQL), reports what it applied and
 * answers the exit code: 0 when the schema is current, 1 with the reason otherwise. Deployments run it
 * once before the replicas, which then start with MIGRATE_ON_START=false.
 */
export async function runMigrateEntry(
  service: string,
  env: Record<string, string | undefined>,
  open: OpenForMigration,
  output: Output = stdio,
): Promise<number> {
  let database: Awaited<ReturnType<OpenForMigration>> | undefined;
  try {
    const config = parseConfig(MigrateConfigSchema, env);
    const where = config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${join(config.DATA_DIR, service)}`;
    database = await open({
      databaseUrl: config.DATABASE_URL,
      pgliteDir: join(config.DATA_DIR, service),
      poolSize: 1,
      migrate: false,
    });
    const pending = await database.pendingMigrations();
    await database.migrate();
    const left = await database.pendingMigrations();
    if (left.length) throw new Error(`still pending after migrating: ${left.join(', ')}`);
    output.out(
      pending.length
        ? `${service}: applied ${pending.length} migration(s) on ${where}: ${pending.join(', ')}`
        : `${service}: schema already current on ${where}`,
    );
    return 0;
  } catch (err) {
    output.err(`${service}: migrations failed: ${reasonOf(err)}`);
    return 1;
  } finally {
    await database?.close().catch(() => {});
  }
}
