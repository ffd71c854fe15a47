import { ErrorBodySchema } from '@exam/domain/errors';
import { InsightsReportSchema } from '@exam/domain/insights';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InsightsService } from './insights.service.ts';

/** The psychometrics report of an exam, for its owner only (issue 5). */
export function insightsRoutes(service: InsightsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/exams/:examId/insights',
      {
        onRequest: app.requireCreator,
        schema: {
          tags: ['insights'],
          params: z.object({ examId: z.string().min(1).max(64) }),
          response: { 200: InsightsReportSchema, 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema },
        },
      },
      async (request) => service.report(request.params.examId, creatorOf(request).sub),
    );
  };
}
