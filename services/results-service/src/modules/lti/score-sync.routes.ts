import { ErrorBodySchema } from '@exam/domain/errors';
import { ResultDetailSchema, ResultIdParamsSchema, type ResultDetail } from '@exam/domain/result';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ScoreSyncService } from './score-sync.service.ts';
import { actorOf } from '../../access/exam-guard.ts';

const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };

/** How the route reads the result it answers with: results' detail, passed in (lti sits below results). */
type ResultReader = { detail(id: string, ownerId: string): Promise<ResultDetail> };

/** The creator's side of the LMS score passback (the job sends; see jobs/lti-score-sync.ts). */
export function scoreSyncRoutes(scoreSync: ScoreSyncService, results: ResultReader) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/results/:id/lms-sync/retry',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('exam:edit', { result: 'id' }),
        schema: {
          tags: ['grading'],
          description:
            "Sends a score the LMS did not take again (its tries start over). 404 when the result is not the creator's or has no LMS score; 409 unless its sync failed.",
          params: ResultIdParamsSchema,
          response: { 200: ResultDetailSchema, ...errors },
        },
      },
      async (request) => {
        const creator = actorOf(request);
        await scoreSync.retry(request.params.id, creator.sub);
        return results.detail(request.params.id, creator.sub);
      },
    );
  };
}
