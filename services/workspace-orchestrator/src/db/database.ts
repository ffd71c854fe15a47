import { fileURLToPath } from 'node:url';
import { openDatabase, type Database } from '@exam/server-kit/db';
import * as schema from './schema.ts';

export type WorkspaceDatabase = Database<typeof schema>;
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
export const MIGRATIONS_SCHEMA = 'workspace_orchestrator';

export function openWorkspaceDatabase(opts: {
  databaseUrl?: string;
  pgliteDir?: string;
  poolSize?: number;
  /** False: leave the migrations to src/migrate.ts (MIGRATE_ON_START). */
  migrate?: boolean;
}): Promise<WorkspaceDatabase> {
  return openDatabase({ ...opts, schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA });
}
