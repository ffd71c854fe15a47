import { BriefingRequestSchema, BriefingSchema } from '@exam/domain/cohort';
import { ErrorBodySchema } from '@exam/domain/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { BriefingService } from './briefing.service.ts';
import { RetryLaterError } from './retry-later.ts';

/** The candidate's briefing before Start (no sign-in: the exam link, name and candidate ID). */
export function briefingRoutes(briefings: BriefingService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/attempts/briefing',
      {
        schema: {
          tags: ['attempts'],
          description:
            'What the candidate reads before Start, for this candidate ID: their duration with extra time, their window and where it stands, attempts allowed and used, whether one is in progress. Creates nothing; limited per client like starts (START_LIMIT_PER_CLIENT, counted apart from them; 429 with Retry-After).',
          body: BriefingRequestSchema,
          response: {
            200: BriefingSchema,
            400: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        try {
          return await briefings.briefing(request.body, { ip: request.ip });
        } catch (err) {
          if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );
  };
}
