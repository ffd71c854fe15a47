import { CollectedFilesSchema, CollectFilesRequestSchema, WorkspaceFilesSchema } from '@exam/domain/internal';
import { AppError, ErrorBodySchema, ErrorCode } from '@exam/domain/errors';
import { CAPABILITY_REFUSALS } from '@exam/domain/roles';
import {
  CreateSessionSchema,
  SessionListSchema,
  SessionParamsSchema,
  SessionSchema,
  WorkspaceStartFailureResponseSchema,
} from '@exam/domain/workspace';
import { attemptOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessTo } from '../../access/exam-access.ts';
import type { ExamDirectory } from '../../deps.ts';
import { sessionGuards } from './sessions.guards.ts';
import type { SessionsService } from './sessions.service.ts';
import type { StartFailures } from './start-failures.ts';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  503: ErrorBodySchema,
};

/**
 * navigator.sendBeacon cannot set headers, so the page-close beacon carries the attempt token in its
 * body (a plain string, or JSON { token }); it is moved into the Authorization header before the guard.
 * The body, unlike a query string, never reaches the access logs.
 */
async function beaconToken(request: FastifyRequest) {
  if (request.headers.authorization) return;
  const body = request.body as unknown;
  const token =
    typeof body === 'string'
      ? body.trim()
      : typeof body === 'object' && body && 'token' in body
        ? String(body.token)
        : '';
  if (token) request.headers.authorization = `Bearer ${token}`;
}

export function sessionsRoutes(
  service: SessionsService,
  startFailures: StartFailures,
  directory: Pick<ExamDirectory, 'examAccess'>,
) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { ownSession, sessionViewer, sessionOf } = sessionGuards(service, directory);

    app.post(
      '/api/session/create',
      {
        onRequest: app.requireAttempt,
        schema: { tags: ['sessions'], body: CreateSessionSchema, response: { 200: SessionSchema, ...errors } },
      },
      async (request) => {
        const claims = attemptOf(request);
        return startFailures.guard(claims, request.log, () => service.create(claims, request.body));
      },
    );

    app.get(
      '/api/session/attempts/:attemptId/start-failure',
      {
        onRequest: app.requireCreator,
        schema: {
          tags: ['sessions'],
          description:
            "Why the attempt's coding workspace could not start, for the exam's owner and the members who read its results (null for anyone else; 403 for a role that does not read results).",
          params: z.object({ attemptId: z.string().min(1).max(64) }),
          response: { 200: WorkspaceStartFailureResponseSchema, ...errors },
        },
      },
      async (request) => {
        const found = await startFailures.find(request.params.attemptId);
        if (!found) return { failure: null };
        const outcome = await accessTo(directory, found.exam, request.user.sub, 'results:read');
        if (outcome === 'forbidden') throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS['results:read']);
        return { failure: outcome === 'ok' ? found.failure : null };
      },
    );

    app.delete(
      '/api/session/:sessionId',
      {
        onRequest: app.requireAttempt,
        preHandler: ownSession,
        schema: { tags: ['sessions'], params: SessionParamsSchema, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await service.end(sessionOf(request));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/session/:sessionId/end',
      {
        preValidation: [beaconToken, app.requireAttempt],
        preHandler: ownSession,
        schema: {
          tags: ['sessions'],
          params: SessionParamsSchema,
          body: z.unknown(),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.end(sessionOf(request), { pageClose: true });
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/sessions',
      {
        onRequest: app.requireCreatorOrAttempt,
        schema: { tags: ['sessions'], response: { 200: SessionListSchema, ...errors } },
      },
      async (request) => ({ sessions: await service.list(request.user) }),
    );

    app.get(
      '/api/session/:sessionId/files',
      {
        onRequest: app.requireCreatorOrAttempt,
        preHandler: sessionViewer,
        schema: {
          tags: ['sessions'],
          params: SessionParamsSchema,
          response: { 200: z.object({ workspaceFiles: WorkspaceFilesSchema }), ...errors },
        },
      },
      async (request) => ({ workspaceFiles: await service.files(sessionOf(request)) }),
    );

    app.post(
      '/internal/attempts/:attemptId/collect',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          params: z.object({ attemptId: z.string().min(1).max(64) }),
          body: CollectFilesRequestSchema,
          response: { 200: CollectedFilesSchema, 400: ErrorBodySchema, 401: ErrorBodySchema, 503: ErrorBodySchema },
        },
      },
      async (request) => ({ files: await service.collect(request.params.attemptId, request.body) }),
    );
  };
}
