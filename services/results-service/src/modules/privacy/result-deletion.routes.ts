import { ErrorBodySchema } from '@exam/domain/errors';
import { DeletedSchema } from '@exam/domain/exam';
import { ResultIdParamsSchema } from '@exam/domain/result';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, scopeOf } from '../../access/exam-guard.ts';
import { auditActorOf } from '../../access/exam-ownership.ts';
import type { Deps } from '../../deps.ts';
import type { DeleteResult } from './result-deletion.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/**
 * An owner or editor deletes one result with its attempt ('results:delete'): another creator's result answers 404 as
 * if it did not exist, a role without the capability 403.
 */
export function resultDeletionRoutes(deleteResult: DeleteResult, deps: Pick<Deps, 'clock'>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.delete(
      '/api/results/:id',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('results:delete', { result: 'id' }),
        schema: {
          tags: ['results'],
          summary: 'Delete one result with its attempt, answers, files, grade history and follow-ups',
          params: ResultIdParamsSchema,
          response: { 200: DeletedSchema, ...errors },
        },
      },
      async (request) => {
        await deleteResult(request.params.id, scopeOf(request), auditActorOf(actorOf(request)), deps.clock.now());
        return { id: request.params.id };
      },
    );
  };
}
