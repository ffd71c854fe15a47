import { ErrorBodySchema } from '@exam/domain/errors';
import { InternalWorkspaceHistorySchema } from '@exam/domain/internal';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { FileHistory } from './file-history.ts';
import type { SessionsService } from './sessions.service.ts';

/**
 * The workspace's file history for results-service's timeline, and a snapshot taken on demand for llm-gateway
 * (internal token only).
 */
export function fileHistoryRoutes(
  history: FileHistory,
  service: Pick<SessionsService, 'findLiveWorkspace' | 'snapshot'>,
) {
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

    // llm-gateway asks when each agent call starts, so a change first seen by this snapshot is known to come
    // before the call's tool calls (attributeAgentChanges). It answers at once: the read of the workspace (a tar
    // of its folder) takes as long as the folder is large, and the agent's call must not wait for it.
    app.post(
      '/internal/attempts/:attemptId/workspace-snapshot',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          params: z.object({ attemptId: z.string().min(1).max(64) }),
          response: {
            202: z.object({ sessionId: z.string() }),
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const row = await service.findLiveWorkspace(request.params.attemptId);
        if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'This attempt has no running workspace');
        void service
          .snapshot(row)
          .catch((err: unknown) =>
            request.log.warn({ err, attemptId: row.attemptId }, 'a workspace snapshot asked for by the gateway failed'),
          );
        return reply.status(202).send({ sessionId: row.id });
      },
    );
  };
}
