import { ErrorBodySchema } from '@exam/domain/errors';
import {
  CreateExamSchema,
  DeletedSchema,
  ExamEnvelopeSchema,
  ExamIdParamsSchema,
  ExamListSchema,
  ExamSchema,
  UpdateExamSchema,
} from '@exam/domain/exam';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ExamsService } from './exams.service.ts';

const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema };

/** The creator's exams API. Every route is creator-only and scoped to the caller. */
export function examsRoutes(service: ExamsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };

    app.post(
      '/api/exams',
      {
        ...guarded,
        schema: {
          tags: ['exams'],
          body: CreateExamSchema,
          response: { 201: ExamEnvelopeSchema, 400: ErrorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ exam: await service.create(creatorOf(request).sub, request.body) }),
    );

    const list = { ...guarded, schema: { tags: ['exams'], response: { 200: ExamListSchema, ...errors } } };
    app.get('/api/exams/auth_exams', list, async (request) => ({ exams: await service.list(creatorOf(request).sub) }));
    // The spec lists GET /api/exams as well (unused by the screens); it answers the same list.
    app.get('/api/exams', list, async (request) => ({ exams: await service.list(creatorOf(request).sub) }));

    app.get(
      '/api/exams/:id',
      {
        ...guarded,
        schema: {
          tags: ['exams'],
          params: ExamIdParamsSchema,
          response: { 200: ExamSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.get(creatorOf(request).sub, request.params.id),
    );

    app.put(
      '/api/exams/:id',
      {
        ...guarded,
        schema: {
          tags: ['exams'],
          params: ExamIdParamsSchema,
          body: UpdateExamSchema,
          response: { 200: ExamSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.update(creatorOf(request).sub, request.params.id, request.body),
    );

    app.delete(
      '/api/exams/:id',
      {
        ...guarded,
        schema: {
          tags: ['exams'],
          params: ExamIdParamsSchema,
          response: { 200: DeletedSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.remove(creatorOf(request).sub, request.params.id),
    );
  };
}
