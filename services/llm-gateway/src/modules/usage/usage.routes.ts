import { ErrorBodySchema } from '@exam/domain/errors';
import { ExamIdParamsSchema } from '@exam/domain/exam';
import { ExamAiUsageSchema, type ExamAiUsage } from '@exam/domain/llm';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.ts';
import type { ChatRepository } from '../chat/chat.repository.ts';
import { assertCan } from '../../access/exam-access.ts';

/**
 * The assistant's spend on one exam, for its owner: the exam-wide counters (migration 0005) against the
 * budget the creator set. Anyone else gets 404, as if the exam did not exist.
 */
export function usageRoutes(repo: ChatRepository, deps: Pick<Deps, 'exams' | 'clock'>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/llm/exams/:id/usage',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['usage'],
          security: [{ bearer: [] }],
          params: ExamIdParamsSchema,
          response: {
            200: ExamAiUsageSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request): Promise<ExamAiUsage> => {
        const exam = await assertCan(deps, request.params.id, creatorOf(request).sub, 'insights:read');
        const spend = await repo.examSpend(exam.id, deps.clock.now());
        const { examTokensPerHour, examRequestsPerHour } = exam.aiSettings.budget;
        return {
          examId: exam.id,
          budget: { tokensPerHour: examTokensPerHour, requestsPerHour: examRequestsPerHour },
          ...spend,
        };
      },
    );
  };
}
