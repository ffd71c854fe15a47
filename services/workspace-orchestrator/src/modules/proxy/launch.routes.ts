import { ErrorBodySchema } from '@exam/domain/errors';
import { editorPathOf, SessionLaunchSchema, SessionParamsSchema } from '@exam/domain/workspace';
import { attemptOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionGuards } from '../sessions/sessions.guards.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';
import { LAUNCH_PARAM } from './access.ts';
import type { LaunchTokens } from './launch-tokens.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** Issues the one-time address of the attempt's editor on WORKSPACE_ORIGIN (see access.ts). */
export function launchRoutes(deps: {
  service: SessionsService;
  launchTokens: LaunchTokens;
  workspaceOrigin: string;
  clock: { now(): Date };
}) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { ownSession, sessionOf } = sessionGuards(deps.service);
    app.post(
      '/api/session/:sessionId/launch',
      {
        onRequest: app.requireAttempt,
        preHandler: ownSession,
        schema: {
          tags: ['sessions'],
          description:
            'A one-time, short-lived address of the editor on WORKSPACE_ORIGIN; opening it sets the editor cookie there.',
          params: SessionParamsSchema,
          response: { 200: SessionLaunchSchema, ...errors },
        },
      },
      async (request) => {
        const row = sessionOf(request);
        const now = deps.clock.now();
        const tokenExp = (request.user as { exp?: number }).exp;
        const capAt = new Date(tokenExp ? tokenExp * 1000 : now.getTime() + 12 * 3600 * 1000);
        const { token, expiresAt } = await deps.launchTokens.issue(
          { sessionId: row.id, attemptId: attemptOf(request).sub, capAt },
          now,
        );
        const editorUrl = `${deps.workspaceOrigin}${editorPathOf(row.id)}?${LAUNCH_PARAM}=${token}`;
        return { editorUrl, expiresAt: expiresAt.toISOString() };
      },
    );
  };
}
