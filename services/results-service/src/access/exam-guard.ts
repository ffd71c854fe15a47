import { AppError, ErrorCode } from '@exam/domain/errors';
import type { ExamCapability } from '@exam/domain/roles';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResultsDatabase } from '../db/database.ts';
import type { Deps } from '../deps.ts';
import { actingIn, examScope, resultScope, type ExamScope } from './exam-ownership.ts';

/** Where a route names its exam: an exam id parameter, a result id parameter, or an exam id field of the body. */
export type ExamLocator = { exam: string } | { result: string } | { body: string };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Route guard (a preHandler, after requireCreator and validation): the creator's role on the route's exam must
     * allow the capability. Sets the request's exam scope (`scopeOf`).
     */
    requireCapability: (capability: ExamCapability, locate: ExamLocator) => (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    examScope?: ExamScope;
  }
}

export function registerExamGuard(
  app: FastifyInstance,
  deps: Pick<Deps, 'examSource'> & { database: ResultsDatabase },
) {
  app.decorateRequest('examScope', undefined);
  app.decorate('requireCapability', (capability: ExamCapability, locate: ExamLocator) => async (request) => {
    const params = request.params as Record<string, string>;
    const creatorId = creatorOf(request).sub;
    if ('result' in locate) {
      request.examScope = await resultScope(deps, String(params[locate.result]), creatorId, capability);
      return;
    }
    const examId = 'exam' in locate ? params[locate.exam] : (request.body as Record<string, string>)[locate.body];
    request.examScope = await examScope(deps, String(examId), creatorId, capability);
  });
}

/** The exam scope a `requireCapability` guard set. */
export function scopeOf(request: FastifyRequest): ExamScope {
  if (!request.examScope) throw new AppError(ErrorCode.INTERNAL, 'The route declares no capability');
  return request.examScope;
}

/** The creator acting within the route's exam (see actingIn): the owner's id to scope by, the member's e-mail. */
export function actorOf(request: FastifyRequest) {
  return actingIn(creatorOf(request), scopeOf(request));
}
