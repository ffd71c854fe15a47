import type { SQL } from 'drizzle-orm';
import type { Db } from '@exam/server-kit/db';

/** Runs drizzle-built SQL and returns its rows whichever driver is underneath (postgres.js returns an array, PGlite `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** The hot paths' prepared statements (server-kit's db.ts). */
export { rawQuery } from '@exam/server-kit/db';
