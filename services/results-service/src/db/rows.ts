import type { SQL } from 'drizzle-orm';
import type { Db } from '@exam/server-kit/db';

/** Runs drizzle-built SQL and returns its rows whichever driver is underneath (postgres.js returns an array, PGlite `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

type PostgresJsClient = { unsafe(text: string, params: unknown[], opts: { prepare: boolean }): Promise<unknown[]> };
type PgliteClient = { query(text: string, params: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * A parameterised statement sent straight to the driver, prepared once per connection on PostgreSQL.
 * For the few hot paths (autosave, submit) where building the query through drizzle costs more CPU
 * than running it. Pass timestamps as ISO strings cast in SQL and read them back as epoch
 * milliseconds: under drizzle, postgres.js leaves timestamps as text while PGlite returns Dates.
 */
export async function rawQuery<T>(db: Db, text: string, params: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: PostgresJsClient | PgliteClient }).$client;
  if ('unsafe' in client) return (await client.unsafe(text, params, { prepare: true })) as T[];
  return (await client.query(text, params)).rows as T[];
}
