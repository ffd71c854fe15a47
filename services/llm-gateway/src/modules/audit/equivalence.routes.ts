import { AuditParamsSchema, EquivalenceReportSchema } from '@exam/domain/assistant-audit';
import { ErrorBodySchema } from '@exam/domain/errors';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { EquivalenceService } from './equivalence.service.ts';

/** Provider equivalence of an assistant audit (docs/product.md): whether its configurations give equivalent help. */
export function equivalenceRoutes(service: EquivalenceService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/exams/:examId/assistant-audits/:auditId/equivalence',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['audit'],
          security: [{ bearer: [] }],
          params: AuditParamsSchema,
          response: {
            200: EquivalenceReportSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            404: ErrorBodySchema,
            409: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request) => service.report(creatorOf(request), request.params.examId, request.params.auditId),
    );
  };
}
