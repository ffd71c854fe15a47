import { ErrorBodySchema } from '@exam/domain/errors';
import { AttemptIdParamsSchema } from '@exam/domain/llm';
import { AgentCallsResponseSchema } from '@exam/domain/workspace-agents';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.ts';
import type { AgentCallRepository } from './agent-endpoint.repository.ts';
import { assertCanReadAttempt } from '../../access/exam-access.ts';

/**
 * An attempt's agent calls for the exam's owner and the members who read results; anyone else gets 404, as for the
 * chat transcript.
 */
export async function agentCallsForOwner(
  repo: AgentCallRepository,
  deps: Pick<Deps, 'attempts' | 'clock' | 'exams'>,
  attemptId: string,
  creatorId: string,
) {
  const listed = await repo.listOfAttempt(attemptId, deps.clock.now());
  const stored =
    listed.ownerId !== undefined && listed.examId ? { ownerId: listed.ownerId, examId: listed.examId } : undefined;
  await assertCanReadAttempt(deps, attemptId, stored, creatorId, 'Attempt');
  // An attempt whose agent made no call: an empty list.
  return listed.calls;
}

/** The reads of agent calls: the exam's owner's, and results-service's for the attempt's timeline. */
export function agentCallRoutes(repo: AgentCallRepository, deps: Pick<Deps, 'attempts' | 'clock' | 'exams'>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/llm/attempts/:attemptId/agent-calls',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['transcripts'],
          security: [{ bearer: [] }],
          description:
            "The workspace agent's calls of an attempt, in order (the exam's owner only; 404 for anyone else).",
          params: AttemptIdParamsSchema,
          response: {
            200: AgentCallsResponseSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request) => ({
        calls: await agentCallsForOwner(repo, deps, request.params.attemptId, creatorOf(request).sub),
      }),
    );

    // results-service checks the exam's owner before asking (its timeline of the attempt).
    app.get(
      '/internal/attempts/:attemptId/agent-calls',
      {
        onRequest: [app.requireInternal],
        schema: {
          hide: true,
          params: AttemptIdParamsSchema,
          response: { 200: AgentCallsResponseSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
        },
      },
      async (request) => ({
        calls: (await repo.listOfAttempt(request.params.attemptId, deps.clock.now())).calls,
      }),
    );
  };
}
