import { ErrorBodySchema } from '@exam/domain/errors';
import {
  PrivacyAttemptsQuerySchema,
  PrivacyAttemptsSchema,
  PrivacyEraseRequestSchema,
  PrivacyEraseResponseSchema,
  PrivacyExportQuerySchema,
  PrivacyExportSchema,
} from '@exam/domain/privacy';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PrivacyService } from './privacy.service.ts';

/** exam-service's calls for candidates' data (modules/privacy there): which attempts, erase, export. */
export function privacyRoutes(service: PrivacyService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema };
    app.get(
      '/internal/privacy/attempts',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          querystring: PrivacyAttemptsQuerySchema,
          response: { 200: PrivacyAttemptsSchema, ...errors },
        },
      },
      async (request) => ({ attempts: await service.attempts(request.query) }),
    );
    app.post(
      '/internal/privacy/erase',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          body: PrivacyEraseRequestSchema,
          response: { 200: PrivacyEraseResponseSchema, ...errors },
        },
      },
      async (request) => ({ deleted: await service.erase(request.body) }),
    );
    app.get(
      '/internal/privacy/export',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          querystring: PrivacyExportQuerySchema,
          response: { 200: PrivacyExportSchema, ...errors },
        },
      },
      async (request) => ({
        service: 'results-service' as const,
        ...(await service.export(request.query.examId, request.query.candidateKey)),
      }),
    );
  };
}
