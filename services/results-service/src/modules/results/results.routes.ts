import { CandidateHistoryParamsSchema, CandidateHistorySchema } from '@exam/domain/candidate-history';
import { ErrorBodySchema } from '@exam/domain/errors';
import {
  ExamResultsSummarySchema,
  ListResultsQuerySchema,
  ResultDetailSchema,
  ResultFileParamsSchema,
  ResultIdParamsSchema,
  ResultListSchema,
  ResultsCsvQuerySchema,
} from '@exam/domain/result';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import { scopeOf } from '../../access/exam-guard.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ResultsService } from './results.service.ts';

const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** RFC 6266: an ASCII fallback name plus the exact UTF-8 name. */
function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Creators read the results of the exams they own or that are shared with them in a role that reads results
 * (access/exam-guard.ts); another creator's look like they do not exist.
 */
export function resultsRoutes(service: ResultsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guard = { onRequest: app.requireCreator };

    app.get(
      '/api/results',
      {
        ...guard,
        schema: {
          tags: ['results'],
          querystring: ListResultsQuerySchema,
          response: { 200: ResultListSchema, 400: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.list(creatorOf(request).sub, request.query),
    );

    app.get(
      '/api/results/summary',
      { ...guard, schema: { tags: ['results'], response: { 200: ExamResultsSummarySchema, ...errors } } },
      async (request) => service.summary(creatorOf(request).sub),
    );

    app.get(
      '/api/results/candidates/:candidateId',
      {
        ...guard,
        schema: {
          tags: ['results'],
          summary: "One candidate's attempts and results across the caller's exams",
          params: CandidateHistoryParamsSchema,
          response: { 200: CandidateHistorySchema, 400: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.candidate(creatorOf(request).sub, request.params.candidateId),
    );

    app.get(
      '/api/results/:id',
      {
        ...guard,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['results'],
          params: ResultIdParamsSchema,
          response: { 200: ResultDetailSchema, 400: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.detail(request.params.id, scopeOf(request).ownerId),
    );

    app.get(
      '/api/results/:id/files/:questionIndex',
      {
        ...guard,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['results'],
          params: ResultFileParamsSchema,
          response: { 200: z.any().describe('The uploaded file'), 400: ErrorBodySchema, ...errors },
        },
      },
      async (request, reply) => {
        const file = await service.file(request.params.id, scopeOf(request).ownerId, request.params.questionIndex);
        return reply
          .header('content-type', file.mimeType)
          .header('content-disposition', contentDisposition(file.fileName))
          .header('x-content-type-options', 'nosniff')
          .send(file.content);
      },
    );

    app.get(
      '/api/exams/:examId/results.csv',
      {
        ...guard,
        preHandler: app.requireCapability('results:read', { exam: 'examId' }),
        schema: {
          tags: ['results'],
          params: z.object({ examId: z.string().min(1).max(64) }),
          querystring: ResultsCsvQuerySchema,
          response: {
            200: z
              .string()
              .describe(
                'text/csv, one row per submitted candidate, question columns headed by title in the exam order (format=gradebook: identity, points, total, percentage, status)',
              ),
            400: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { format, bom } = request.query;
        const csv = await service.csv(request.params.examId, scopeOf(request).ownerId, { format, bom });
        const name =
          format === 'gradebook' ? `gradebook-${request.params.examId}.csv` : `results-${request.params.examId}.csv`;
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', contentDisposition(name))
          .send(csv);
      },
    );
  };
}
