import { ErrorBodySchema } from '@exam/domain/errors';
import { CourseMaterialListSchema } from '@exam/domain/exam-ai';
import { DeletedSchema } from '@exam/domain/exam';
import multipart from '@fastify/multipart';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MaterialsService, UploadedFile } from './materials.service.ts';

const MAX_FILES_PER_UPLOAD = 20;
const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema };

/** Course materials (aiSettings.courseMaterials, docs/product.md#exams): uploaded once, referenced by exams by id. */
export function materialsRoutes(service: MaterialsService, opts: { maxBytes: number }) {
  return async (fastify: FastifyInstance) => {
    // Scoped to this plugin: only the upload route parses multipart bodies.
    await fastify.register(multipart, {
      limits: { fileSize: opts.maxBytes, files: MAX_FILES_PER_UPLOAD, fields: 10, parts: MAX_FILES_PER_UPLOAD + 10 },
    });
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };

    app.post(
      '/api/materials',
      {
        ...guarded,
        schema: {
          tags: ['materials'],
          consumes: ['multipart/form-data'],
          response: {
            201: CourseMaterialListSchema,
            400: ErrorBodySchema,
            413: ErrorBodySchema,
            406: ErrorBodySchema,
            415: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const files: UploadedFile[] = [];
        // toBuffer() throws a 413 as soon as one file passes the size limit.
        for await (const part of request.files()) files.push({ fileName: part.filename, bytes: await part.toBuffer() });
        return reply.status(201).send({ materials: await service.upload(creatorOf(request).sub, files) });
      },
    );

    app.get(
      '/api/materials',
      { ...guarded, schema: { tags: ['materials'], response: { 200: CourseMaterialListSchema, ...errors } } },
      async (request) => ({
        materials: await service.list(creatorOf(request).sub),
      }),
    );

    app.delete(
      '/api/materials/:id',
      {
        ...guarded,
        schema: {
          tags: ['materials'],
          params: z.object({ id: z.string().min(1).max(64) }),
          response: { 200: DeletedSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.remove(creatorOf(request).sub, request.params.id),
    );
  };
}
