import { ErrorBodySchema } from '@exam/domain/errors';
import { ExamIdParamsSchema } from '@exam/domain/exam';
import { PublicExamSummarySchema } from '@exam/domain/public-exam';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PublicService } from './public.service.ts';

/** What a candidate's browser loads before an attempt; no token needed, and no token changes the answer. */
export function publicRoutes(service: PublicService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/public/exams/:id',
      {
        schema: {
          tags: ['public'],
          params: ExamIdParamsSchema,
          response: {
            200: PublicExamSummarySchema,
            400: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request) => service.getSummary(request.params.id),
    );
  };
}
