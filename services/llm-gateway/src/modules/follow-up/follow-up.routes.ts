import { ErrorBodySchema } from '@exam/domain/errors';
import { GenerateFollowUpsRequestSchema, GenerateFollowUpsResponseSchema } from '@exam/domain/follow-up';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerSignal } from '../grading/grading.routes.ts';
import type { FollowUpGenerator } from './generate-follow-ups.ts';

const ParamsSchema = z.object({ attemptId: z.string().min(1).max(64) });

/**
 * Follow-up questions after submit, for results-service only (the shared internal token; ARCHITECTURE.md's
 * results-service ⇄ llm-gateway loop). results-service has already checked that the attempt is submitted and has
 * a follow-up, and sends only the candidate's own answers with their questions' statements.
 */
export function followUpRoutes(generator: FollowUpGenerator) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/internal/attempts/:attemptId/follow-up-questions',
      {
        onRequest: [app.requireInternal],
        schema: {
          hide: true,
          params: ParamsSchema,
          body: GenerateFollowUpsRequestSchema,
          response: {
            200: GenerateFollowUpsResponseSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            404: ErrorBodySchema,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        // results-service gave up (its FOLLOW_UP_TIMEOUT_MS): the provider call stops too.
        const caller = callerSignal(reply);
        try {
          return await generator.generate(request.params.attemptId, request.body, {
            signal: caller.signal,
            log: request.log,
          });
        } finally {
          caller.release();
        }
      },
    );
  };
}
