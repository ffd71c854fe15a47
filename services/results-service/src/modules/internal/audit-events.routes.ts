import { ErrorBodySchema } from '@exam/domain/errors';
import { AuditEventListSchema, AuditEventsQuerySchema } from '@exam/domain/internal';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listAuditEvents } from '../../access/audit-log.ts';
import type { ResultsDatabase } from '../../db/database.ts';

/** results-service's half of an exam's audit log, for exam-service to merge and serve to the owner. */
export function auditEventsRoutes(database: ResultsDatabase) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/internal/exams/:id/audit-events',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          params: z.object({ id: z.string().min(1).max(64) }),
          querystring: AuditEventsQuerySchema,
          response: { 200: AuditEventListSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
        },
      },
      async (request) => {
        const { before, beforeId, limit } = request.query;
        const events = await listAuditEvents(database.db, request.params.id, {
          before: before ? new Date(before) : undefined,
          beforeId,
          limit,
        });
        return { events };
      },
    );
  };
}
