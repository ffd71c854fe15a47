import { ErrorBodySchema } from '@exam/domain/errors';
import { ExamIdParamsSchema } from '@exam/domain/exam';
import {
  ExamGrantsSchema,
  InternalExamSchema,
  WorkspaceDemandQuerySchema,
  WorkspaceDemandSchema,
} from '@exam/domain/internal';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { InternalService } from './internal.service.ts';

/** Service-to-service routes (x-internal-token); the web servers never proxy /internal. */
export function internalRoutes(service: InternalService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/internal/exams/:id',
      {
        onRequest: [app.requireInternal],
        schema: {
          tags: ['internal'],
          params: ExamIdParamsSchema,
          response: { 200: InternalExamSchema, 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => service.getExam(request.params.id),
    );
    app.get(
      '/internal/creators/:id/exam-grants',
      {
        onRequest: [app.requireInternal],
        schema: {
          tags: ['internal'],
          params: z.object({ id: z.string().min(1).max(200) }),
          response: { 200: ExamGrantsSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
        },
      },
      async (request) => service.examGrants(request.params.id),
    );
    app.get(
      '/internal/workspace-demand',
      {
        onRequest: [app.requireInternal],
        schema: {
          tags: ['internal'],
          querystring: WorkspaceDemandQuerySchema,
          response: { 200: WorkspaceDemandSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
        },
      },
      async (request) => ({
        demand: await service.workspaceDemand(request.query.horizonSeconds, request.query.graceSeconds),
      }),
    );
  };
}
