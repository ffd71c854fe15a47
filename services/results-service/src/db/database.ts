import { fileURLToPath } from 'node:url';
import { openDatabase, type Database } from '@exam/server-kit/db';
import * as schema from './schema.ts';

export type ResultsDatabase = Database<typeof schema>;
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
export const MIGRATIONS_SCHEMA = 'results_service';

export function openResultsDatabase(opts: {
  databaseUrl?: string;
  pgliteDir?: string;
  poolSize?: number;
  /** False: leave the migrations to src/migrate.ts (MIGRATE_ON_START). */
  migrate?: boolean;
}): Promise<ResultsDatabase> {
  return openDatabase({ ...opts, schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA });
}
