import {
  AssistantAuditSchema,
  AuditEstimateSchema,
  AuditExamParamsSchema,
  AuditParamsSchema,
  LatestAuditSchema,
  StartAuditSchema,
} from '@exam/domain/assistant-audit';
import { ErrorBodySchema } from '@exam/domain/errors';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuditService } from './audit.service.ts';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};

/** The pre-publish assistant audit of an exam (docs/product.md): its owner estimates, starts, follows and cancels it. */
export function auditRoutes(service: AuditService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const common = { tags: ['assistant-audit'], security: [{ bearer: [] }] };
    const startBody = StartAuditSchema.default({ concurrency: 4, compareWith: [] });

    app.post(
      '/api/exams/:examId/assistant-audits/estimate',
      {
        onRequest: [app.requireCreator],
        schema: {
          ...common,
          params: AuditExamParamsSchema,
          body: startBody,
          response: { 200: AuditEstimateSchema, ...errors },
        },
      },
      async (request) => service.estimate(creatorOf(request), request.params.examId, request.body),
    );

    app.post(
      '/api/exams/:examId/assistant-audits',
      {
        onRequest: [app.requireCreator],
        schema: {
          ...common,
          params: AuditExamParamsSchema,
          body: startBody,
          response: { 202: AssistantAuditSchema, ...errors },
        },
      },
      async (request, reply) => {
        const audit = await service.start(creatorOf(request), request.params.examId, request.body);
        return reply.status(202).send(audit);
      },
    );

    app.get(
      '/api/exams/:examId/assistant-audits/latest',
      {
        onRequest: [app.requireCreator],
        schema: { ...common, params: AuditExamParamsSchema, response: { 200: LatestAuditSchema, ...errors } },
      },
      async (request) => service.latest(creatorOf(request), request.params.examId),
    );

    app.get(
      '/api/exams/:examId/assistant-audits/:auditId',
      {
        onRequest: [app.requireCreator],
        schema: { ...common, params: AuditParamsSchema, response: { 200: AssistantAuditSchema, ...errors } },
      },
      async (request) => service.get(creatorOf(request), request.params.examId, request.params.auditId),
    );

    app.post(
      '/api/exams/:examId/assistant-audits/:auditId/cancel',
      {
        onRequest: [app.requireCreator],
        schema: { ...common, params: AuditParamsSchema, response: { 200: AssistantAuditSchema, ...errors } },
      },
      async (request) => service.cancel(creatorOf(request), request.params.examId, request.params.auditId),
    );
  };
}
