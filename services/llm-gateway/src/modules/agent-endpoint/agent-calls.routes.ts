import { ErrorBodySchema, notFound } from '@exam/domain/errors';
import { AttemptIdParamsSchema } from '@exam/domain/llm';
import { AgentCallsResponseSchema } from '@exam/domain/workspace-agents';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.ts';
import type { AgentCallRepository } from './agent-endpoint.repository.ts';

/** An attempt's agent calls for the exam's owner; anyone else gets 404, as for the chat transcript. */
export async function agentCallsForOwner(
  repo: AgentCallRepository,
  deps: Pick<Deps, 'attempts' | 'clock'>,
  attemptId: string,
  ownerId: string,
) {
  const listed = await repo.listOfAttempt(attemptId, deps.clock.now());
  if (listed.ownerId !== undefined) {
    if (listed.ownerId !== ownerId) throw notFound('Attempt');
    return listed.calls;
  }
  // An attempt whose agent made no call: its owner gets an empty list.
  const attempt = await deps.attempts.findAttempt(attemptId);
  if (!attempt || attempt.ownerId !== ownerId) throw notFound('Attempt');
  return [];
}

/** The reads of agent calls: the exam's owner's, and results-service's for the attempt's timeline. */
export function agentCallRoutes(repo: AgentCallRepository, deps: Pick<Deps, 'attempts' | 'clock'>) {
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
