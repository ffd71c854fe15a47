import type { Db } from '@exam/server-kit/db';

type PostgresJsClient = { unsafe(text: string, params: unknown[], opts: { prepare: boolean }): Promise<unknown[]> };
type PgliteClient = { query(text: string, params: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * A parameterised statement sent straight to the driver, prepared once per connection on PostgreSQL: one
 * round trip (Bind + Execute) from then on. drizzle's `execute` goes through postgres.js's `unsafe` without
 * `prepare`, which describes every statement that has parameters before running it: two round trips, on the
 * chat's path to the first token (bench/README.md, llm-gateway). For the hot statements only; timestamps
 * come back as text on postgres.js (drizzle's parsers) and as Dates on PGlite, jsonb parsed on both or text.
 */
export async function rawQuery<T>(db: Db, text: string, params: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: PostgresJsClient | PgliteClient }).$client;
  if ('unsafe' in client) return (await client.unsafe(text, params, { prepare: true })) as T[];
  return (await client.query(text, params)).rows as T[];
}
