import { ErrorBodySchema } from '@exam/domain/errors';
import { ExamIdParamsSchema, PublicExamSchema } from '@exam/domain/exam';
import { optionalClaims } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PublicService } from './public.service.ts';

/** What a candidate's browser loads before and during an attempt; no token needed. */
export function publicRoutes(service: PublicService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/public/exams/:id',
      {
        schema: {
          tags: ['public'],
          params: ExamIdParamsSchema,
          response: { 200: PublicExamSchema, 400: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => service.getForCandidate(request.params.id, await optionalClaims(request)),
    );
  };
}
