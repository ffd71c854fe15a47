import { AppError, ErrorBodySchema, ErrorCode } from '@exam/domain/errors';
import { ExamIdParamsSchema } from '@exam/domain/exam';
import { PreviewMessages, PreviewTokenResponseSchema, PublicExamSchema } from '@exam/domain/public-exam';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PreviewClaims, PreviewTokens } from './preview-token.ts';
import type { PreviewService } from './preview.service.ts';

function bearerOf(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * POST /api/exams/{id}/preview-token (the owner's creator session) and GET /api/public/exams/{id}/preview
 * (that token only). The read is a GET and nothing else accepts the token, so a preview can write nothing.
 */
export function previewRoutes(service: PreviewService, tokens: PreviewTokens) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const claimsOf = new WeakMap<FastifyRequest, PreviewClaims>();
    // The route guard of the preview read: a valid preview token, checked before the handler runs.
    const requirePreview = async (request: FastifyRequest) => {
      const token = bearerOf(request);
      if (!token) throw new AppError(ErrorCode.UNAUTHENTICATED, PreviewMessages.missing);
      claimsOf.set(request, tokens.verify(token));
    };
    const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

    app.post(
      '/api/exams/:id/preview-token',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['exams'],
          params: ExamIdParamsSchema,
          response: { 201: PreviewTokenResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const creator = creatorOf(request);
        return reply.status(201).send(await service.issue(creator.sub, creator.sid, request.params.id));
      },
    );

    app.get(
      '/api/public/exams/:id/preview',
      {
        onRequest: [requirePreview],
        schema: { tags: ['public'], params: ExamIdParamsSchema, response: { 200: PublicExamSchema, ...errors } },
      },
      async (request, reply) => {
        // A preview shows unreleased questions: no shared cache may keep it.
        void reply.header('cache-control', 'no-store');
        const claims = claimsOf.get(request);
        if (!claims) throw new AppError(ErrorCode.UNAUTHENTICATED, PreviewMessages.missing);
        return service.read(request.params.id, claims);
      },
    );
  };
}
