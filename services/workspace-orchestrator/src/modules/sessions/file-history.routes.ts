import { ErrorBodySchema } from '@exam/domain/errors';
import { InternalWorkspaceHistorySchema } from '@exam/domain/internal';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FileHistory } from './file-history.ts';

/** The workspace's file history for results-service's timeline (internal token only). */
export function fileHistoryRoutes(history: FileHistory) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/internal/attempts/:attemptId/file-history',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          params: z.object({ attemptId: z.string().min(1).max(64) }),
          response: { 200: InternalWorkspaceHistorySchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
        },
      },
      async (request) => history.read(request.params.attemptId),
    );
  };
}
