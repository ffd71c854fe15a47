import { ErrorBodySchema } from '@exam/domain/errors';
import { toPublicQuestion } from '@exam/domain/question';
import { InternalAttemptSchema } from '@exam/domain/internal';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SectionMessages } from '@exam/domain/sections';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { closedReason, type AttemptsService } from '../attempts/attempts.service.ts';

/** Service-to-service reads (llm-gateway and workspace-orchestrator ask whether an attempt is still open; the gateway also reads its questions). */
export function internalRoutes(service: AttemptsService, deps: Pick<Deps, 'clock'>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/internal/attempts/:id',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          params: z.object({ id: z.string().min(1).max(64) }),
          response: { 200: InternalAttemptSchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => {
        const attempt = await service.getAttempt(request.params.id);
        // With sections: only the questions reached, and the assistant off while the current section has none.
        const { reached, assistant } = await service.reach(attempt);
        return {
          attemptId: attempt.id,
          examId: attempt.examId,
          ownerId: attempt.ownerId,
          startedAt: attempt.startedAt.toISOString(),
          deadline: attempt.deadline?.toISOString() ?? null,
          submittedAt: attempt.submittedAt?.toISOString() ?? null,
          isOpen: closedReason(attempt, deps.clock.now()) === undefined,
          questions: attempt.examSnapshot.questions.slice(0, reached).map(toPublicQuestion),
          assistant: { available: assistant, reason: assistant ? null : SectionMessages.assistantOff },
        };
      },
    );
  };
}
