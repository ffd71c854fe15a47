import { ErrorBodySchema } from '@exam/domain/errors';
import { SubmittedCandidatesSchema } from '@exam/domain/roster';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SubmissionsRepository } from './submissions.repository.ts';

/** exam-service's reminder job asks who has submitted, so only the others are reminded. */
export function submissionsRoutes(repo: SubmissionsRepository) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/internal/exams/:id/submitted-candidates',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          params: z.object({ id: z.string().min(1).max(64) }),
          response: { 200: SubmittedCandidatesSchema, 401: ErrorBodySchema },
        },
      },
      async (request) => ({ candidateKeys: await repo.submittedCandidateKeys(request.params.id) }),
    );
  };
}
