import { ErrorBodySchema } from '@exam/domain/errors';
import { ResultIdParamsSchema } from '@exam/domain/result';
import { TimelineSchema } from '@exam/domain/timeline';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TimelineService } from './timeline.service.ts';
import { scopeOf } from '../../access/exam-guard.ts';

/** The exam's creator reads how each answer came to be; another creator's result looks like it does not exist. */
export function timelineRoutes(service: TimelineService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/results/:id/timeline',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['results'],
          summary: 'Everything that happened in the attempt, in time order, and how each answer came to be',
          description:
            "Proctoring events, every edit of every answer (operations that replay to the stored answer from empty, with each character's source), the assistant conversation and its guardrail stops, test runs with their outcomes, workspace file changes, announcements and the submit, with typing figures per answer against the exam's other candidates. A part another service holds that could not be read is left empty and named in `unavailable`.",
          params: ResultIdParamsSchema,
          response: {
            200: TimelineSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request) => service.timeline(request.params.id, scopeOf(request).ownerId),
    );
  };
}
