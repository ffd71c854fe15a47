import { tablesOfSchema } from '@exam/server-kit/candidate-data';
import type { Db } from '@exam/server-kit/db';
import { attemptPrivacyRoutes } from '@exam/server-kit/privacy-routes';
import type { FastifyInstance } from 'fastify';
import * as schema from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { GATEWAY_CANDIDATE_TABLES } from './candidate-tables.ts';

export const GATEWAY_TABLES = tablesOfSchema(schema);

/** Candidates' conversations and agent calls, erased and exported on exam-service's request (modules/privacy there). */
export async function registerPrivacy(app: FastifyInstance, deps: Pick<Deps, 'database'>) {
  await app.register(
    attemptPrivacyRoutes({
      service: 'llm-gateway',
      db: deps.database.db as unknown as Db,
      tables: GATEWAY_TABLES,
      declared: GATEWAY_CANDIDATE_TABLES,
    }),
  );
}
