import { AppError, ErrorCode } from '@exam/domain/errors';
import { attemptOf } from '@exam/server-kit/plugins/auth';
import type { FastifyRequest } from 'fastify';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { SessionsService } from './sessions.service.ts';

/**
 * Route guards, declared after the role guard: the session named in the URL exists and the caller may
 * use it. PreHandlers, so the params are validated first (a malformed request is still 400); the handler
 * takes the row the guard found with `sessionOf`.
 */
export function sessionGuards(service: Pick<SessionsService, 'findSession'>) {
  const found = new WeakMap<FastifyRequest, WorkspaceRow>();
  const load = (request: FastifyRequest) => service.findSession((request.params as { sessionId: string }).sessionId);
  const otherAttempt = () => new AppError(ErrorCode.FORBIDDEN, 'This session belongs to another attempt');

  return {
    /** Only the attempt that owns the session (ending it). */
    async ownSession(request: FastifyRequest) {
      const row = await load(request);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      if (row.attemptId !== attemptOf(request).sub) throw otherAttempt();
      found.set(request, row);
    },

    /** The attempt that owns the session, or the creator who owns its exam (reading its files). */
    async sessionViewer(request: FastifyRequest) {
      const row = await load(request);
      if (!row?.attemptId) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      const claims = request.user;
      const allowed = claims.kind === 'attempt' ? row.attemptId === claims.sub : row.ownerId === claims.sub;
      if (!allowed) throw otherAttempt();
      found.set(request, row);
    },

    /** The session row the route's guard found. */
    sessionOf(request: FastifyRequest): WorkspaceRow {
      const row = found.get(request);
      if (!row) throw new Error('this route declares no session guard');
      return row;
    },
  };
}
