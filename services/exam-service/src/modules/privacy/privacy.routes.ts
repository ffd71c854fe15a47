import { ErrorBodySchema } from '@exam/domain/errors';
import { ExamIdParamsSchema } from '@exam/domain/exam';
import { CandidateDataRequestSchema, DataErasureEnvelopeSchema, DataErasureListSchema } from '@exam/domain/privacy';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CandidateDataService } from './privacy.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** RFC 6266 with an ASCII fallback, as the other downloads send it. */
const attachment = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

/** A candidate's data on request (the exam's owner only: 'candidates:data' in @exam/domain/roles). */
export function privacyRoutes(service: CandidateDataService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };
    const creator = (request: Parameters<typeof creatorOf>[0]) => {
      const claims = creatorOf(request);
      return { id: claims.sub, email: claims.email };
    };

    app.post(
      '/api/exams/:id/candidates/erase',
      {
        ...guarded,
        schema: {
          tags: ['privacy'],
          params: ExamIdParamsSchema,
          body: CandidateDataRequestSchema,
          response: { 200: DataErasureEnvelopeSchema, 502: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
        },
      },
      async (request) => ({
        erasure: await service.erase(creator(request), request.params.id, request.body.candidateId),
      }),
    );

    app.get(
      '/api/exams/:id/candidates/export',
      {
        ...guarded,
        schema: {
          tags: ['privacy'],
          params: ExamIdParamsSchema,
          querystring: CandidateDataRequestSchema,
          response: {
            200: z.any().describe('application/zip: one JSON file per service, the files, and README.txt'),
            502: ErrorBodySchema,
            503: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const file = await service.export(creator(request), request.params.id, request.query.candidateId);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', attachment(file.fileName))
          .header('cache-control', 'no-store')
          .send(file.content);
      },
    );

    app.get(
      '/api/exams/:id/erasures',
      {
        ...guarded,
        schema: { tags: ['privacy'], params: ExamIdParamsSchema, response: { 200: DataErasureListSchema, ...errors } },
      },
      async (request) => ({ erasures: await service.list(creatorOf(request).sub, request.params.id) }),
    );
  };
}
