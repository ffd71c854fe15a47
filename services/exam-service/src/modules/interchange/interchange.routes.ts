import { ErrorBodySchema } from '@exam/domain/errors';
import { ExamIdParamsSchema } from '@exam/domain/exam';
import {
  ImportFileSchema,
  ImportPreviewSchema,
  ImportRequestSchema,
  ImportResultSchema,
  MAX_IMPORT_BYTES,
} from '@exam/domain/interchange';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InterchangeService } from './interchange.service.ts';

const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema };
/** The file travels base64-encoded in JSON: a third larger, plus room for the other fields. */
const bodyLimit = Math.ceil((MAX_IMPORT_BYTES * 4) / 3) + 64 * 1024;

/** RFC 6266: an ASCII fallback name plus the exact UTF-8 name. */
function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Question import (preview, then import), QTI and Moodle XML export; creator-only, and only the creator's own
 * exams.
 */
export function interchangeRoutes(service: InterchangeService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };

    app.post(
      '/api/exams/import/preview',
      {
        ...guarded,
        bodyLimit,
        schema: {
          tags: ['exams'],
          body: ImportFileSchema,
          response: { 200: ImportPreviewSchema, 400: ErrorBodySchema, 413: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.preview(request.body),
    );

    app.post(
      '/api/exams/import',
      {
        ...guarded,
        bodyLimit,
        schema: {
          tags: ['exams'],
          body: ImportRequestSchema,
          response: {
            201: ImportResultSchema,
            400: ErrorBodySchema,
            404: ErrorBodySchema,
            409: ErrorBodySchema,
            413: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.importQuestions(creatorOf(request).sub, request.body)),
    );

    app.get(
      '/api/exams/:id/export.qti',
      {
        ...guarded,
        schema: {
          tags: ['exams'],
          params: ExamIdParamsSchema,
          response: {
            200: z.any().describe('application/zip: a QTI 3.0 content package of the exam'),
            400: ErrorBodySchema,
            404: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const file = await service.exportQti(creatorOf(request).sub, request.params.id);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', contentDisposition(file.fileName))
          .send(file.content);
      },
    );

    app.get(
      '/api/exams/:id/export.moodle-xml',
      {
        ...guarded,
        schema: {
          tags: ['exams'],
          params: ExamIdParamsSchema,
          response: {
            200: z
              .any()
              .describe(
                'application/xml: the questions in Moodle XML; x-export-losses counts what Moodle cannot hold, named at the top of the file',
              ),
            400: ErrorBodySchema,
            404: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const file = await service.exportMoodleXml(creatorOf(request).sub, request.params.id);
        return reply
          .header('content-type', 'application/xml; charset=utf-8')
          .header('content-disposition', contentDisposition(file.fileName))
          .header('x-export-losses', String(file.losses))
          .send(file.content);
      },
    );
  };
}
