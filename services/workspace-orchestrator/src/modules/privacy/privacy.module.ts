import { tablesOfSchema } from '@exam/server-kit/candidate-data';
import type { Db } from '@exam/server-kit/db';
import { attemptPrivacyRoutes } from '@exam/server-kit/privacy-routes';
import type { FastifyInstance } from 'fastify';
import * as schema from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { WORKSPACE_CANDIDATE_TABLES } from './candidate-tables.ts';
import { createEngineCleanup } from './engine-cleanup.ts';

export const WORKSPACE_TABLES = tablesOfSchema(schema);

/** Candidates' workspaces, volumes, runs and file history, erased and exported on exam-service's request. */
export async function registerPrivacy(app: FastifyInstance, deps: Pick<Deps, 'database' | 'engines'>) {
  await app.register(
    attemptPrivacyRoutes({
      service: 'workspace-orchestrator',
      db: deps.database.db as unknown as Db,
      tables: WORKSPACE_TABLES,
      declared: WORKSPACE_CANDIDATE_TABLES,
      beforeErase: createEngineCleanup(deps.database, deps.engines),
    }),
  );
}
