import { AppError, ErrorCode } from '@exam/domain/errors';
import { attemptOf } from '@exam/server-kit/plugins/auth';
import type { FastifyRequest } from 'fastify';
import { CAPABILITY_REFUSALS } from '@exam/domain/roles';
import { accessTo } from '../../access/exam-access.ts';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { ExamDirectory } from '../../deps.ts';
import type { SessionsService } from './sessions.service.ts';

/**
 * Route guards, declared after the role guard: the session named in the URL exists and the caller may
 * use it. PreHandlers, so the params are validated first (a malformed request is still 400); the handler
 * takes the row the guard found with `sessionOf`.
 */
export function sessionGuards(
  service: Pick<SessionsService, 'findSession'>,
  directory?: Pick<ExamDirectory, 'examAccess'>,
) {
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

    /**
     * The attempt that owns the session, or a creator whose role on its exam reads candidates' work (reading its
     * files): the owner, an editor or a grader. A role that does not is refused naming what it lacks.
     */
    async sessionViewer(request: FastifyRequest) {
      const row = await load(request);
      if (!row?.attemptId) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      const claims = request.user;
      if (claims.kind === 'attempt') {
        if (row.attemptId !== claims.sub) throw otherAttempt();
      } else if (row.ownerId !== claims.sub) {
        const outcome =
          directory && row.examId
            ? await accessTo(directory, { examId: row.examId, ownerId: row.ownerId }, claims.sub, 'results:read')
            : 'not-found';
        if (outcome === 'forbidden') throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS['results:read']);
        if (outcome === 'not-found') throw otherAttempt();
      }
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
