import { ErrorBodySchema } from '@exam/domain/errors';
import { AuditLogQuerySchema, AuditLogResponseSchema } from '@exam/domain/sharing';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditService } from './audit.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

export function auditRoutes(service: AuditService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/exams/:id/audit',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['audit'],
          description:
            "Who did what to the exam and its results, newest first (exam-service's and results-service's events); the owner's only.",
          params: z.object({ id: z.string().min(1).max(64) }),
          querystring: AuditLogQuerySchema,
          response: { 200: AuditLogResponseSchema, ...errors },
        },
      },
      async (request) => service.list(creatorOf(request).sub, request.params.id, request.query),
    );
  };
}
