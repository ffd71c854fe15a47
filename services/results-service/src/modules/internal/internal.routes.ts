import { ErrorBodySchema } from '@exam/domain/errors';
import { toPublicQuestion, type Question } from '@exam/domain/question';
import { InternalAttemptSchema, type InternalAttempt } from '@exam/domain/internal';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SectionMessages } from '@exam/domain/sections';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { closedReason, type AttemptsService } from '../attempts/attempts.service.ts';

/**
 * The keys of the calculated questions the candidate has reached, as their snapshot instantiated them at start
 * (calculated.ts: `calculated.values` set, the key in `acceptedAnswers[0]`), for the gateway's answer guard.
 * A question whose values gave no finite key has none.
 */
export function calculatedKeysOf(questions: readonly Question[]): NonNullable<InternalAttempt['calculatedKeys']> {
  return questions.flatMap((q, questionIndex) => {
    const key = q.acceptedAnswers[0]?.trim();
    if (q.type !== 'calculated' || !q.calculated?.values || !key) return [];
    return [{ questionIndex, questionId: q.id, key, tolerance: q.matching.numeric, units: q.units }];
  });
}

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
        const seen = attempt.examSnapshot.questions.slice(0, reached);
        return {
          attemptId: attempt.id,
          examId: attempt.examId,
          ownerId: attempt.ownerId,
          startedAt: attempt.startedAt.toISOString(),
          deadline: attempt.deadline?.toISOString() ?? null,
          submittedAt: attempt.submittedAt?.toISOString() ?? null,
          isOpen: closedReason(attempt, deps.clock.now()) === undefined,
          questions: seen.map(toPublicQuestion),
          assistant: { available: assistant, reason: assistant ? null : SectionMessages.assistantOff },
          calculatedKeys: calculatedKeysOf(seen),
        };
      },
    );
  };
}
