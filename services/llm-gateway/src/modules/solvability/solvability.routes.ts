import { ErrorBodySchema } from '@exam/domain/errors';
import {
  LatestSolvabilityCheckSchema,
  SolvabilityCheckParamsSchema,
  SolvabilityCheckSchema,
  SolvabilityExamParamsSchema,
  StartSolvabilityCheckSchema,
} from '@exam/domain/solvability';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SolvabilityService } from './solvability.service.ts';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};

/** The AI solvability check of an exam (docs/product.md): its owner starts, follows and cancels it. */
export function solvabilityRoutes(service: SolvabilityService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const common = { tags: ['solvability'], security: [{ bearer: [] }] };

    app.post(
      '/api/exams/:examId/solvability-checks',
      {
        onRequest: [app.requireCreator],
        schema: {
          ...common,
          params: SolvabilityExamParamsSchema,
          body: StartSolvabilityCheckSchema.default({ phrasingsPerQuestion: 3, compareWith: [] }),
          response: { 202: SolvabilityCheckSchema, 409: ErrorBodySchema, ...errors },
        },
      },
      async (request, reply) => {
        const check = await service.start(creatorOf(request), request.params.examId, request.body);
        return reply.status(202).send(check);
      },
    );

    app.get(
      '/api/exams/:examId/solvability-checks/latest',
      {
        onRequest: [app.requireCreator],
        schema: {
          ...common,
          params: SolvabilityExamParamsSchema,
          response: { 200: LatestSolvabilityCheckSchema, ...errors },
        },
      },
      async (request) => ({ check: await service.latest(creatorOf(request), request.params.examId) }),
    );

    app.get(
      '/api/exams/:examId/solvability-checks/:checkId',
      {
        onRequest: [app.requireCreator],
        schema: {
          ...common,
          params: SolvabilityCheckParamsSchema,
          response: { 200: SolvabilityCheckSchema, ...errors },
        },
      },
      async (request) => service.get(creatorOf(request), request.params.examId, request.params.checkId),
    );

    app.post(
      '/api/exams/:examId/solvability-checks/:checkId/cancel',
      {
        onRequest: [app.requireCreator],
        schema: {
          ...common,
          params: SolvabilityCheckParamsSchema,
          response: { 200: SolvabilityCheckSchema, 409: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.cancel(creatorOf(request), request.params.examId, request.params.checkId),
    );
  };
}
