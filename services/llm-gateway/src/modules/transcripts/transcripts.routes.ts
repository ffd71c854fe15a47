import { ErrorBodySchema } from '@exam/domain/errors';
import { ExamIdParamsSchema } from '@exam/domain/exam';
import { InternalAttemptTranscriptSchema, InternalTranscriptsSchema } from '@exam/domain/internal';
import { AttemptIdParamsSchema, TranscriptResponseSchema } from '@exam/domain/llm';
import { attemptOf, creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import type { AgentCallRepository } from '../agent-endpoint/agent-endpoint.repository.ts';
import { agentCallsForOwner } from '../agent-endpoint/agent-calls.routes.ts';
import { forCandidate, type ChatRepository } from '../chat/chat.repository.ts';
import { assertCanReadAttempt } from '../../access/exam-access.ts';

export function transcriptRoutes(
  repo: ChatRepository,
  agentCalls: AgentCallRepository,
  deps: Pick<Deps, 'attempts' | 'clock' | 'exams'>,
) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    // The candidate's own conversation, to restore the panel after a reload: never what was planted (the candidate
    // learns that with their released result, docs/product.md#reliance-calibration-planted-errors).
    app.get(
      '/api/llm/transcript',
      {
        onRequest: [app.requireAttempt],
        schema: {
          tags: ['transcripts'],
          security: [{ bearer: [] }],
          response: { 200: TranscriptResponseSchema, 401: ErrorBodySchema, 403: ErrorBodySchema },
        },
      },
      async (request) => ({ messages: (await repo.listMessages(attemptOf(request).sub)).map(forCandidate) }),
    );

    // The exam's owner and the members who read results (access/exam-access.ts) read a candidate's conversation;
    // anyone else gets 404, as if it did not exist. It carries the workspace agent's calls too (never the candidate's
    // own read).
    app.get(
      '/api/llm/attempts/:attemptId/transcript',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['transcripts'],
          security: [{ bearer: [] }],
          params: AttemptIdParamsSchema,
          response: {
            200: TranscriptResponseSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const creator = creatorOf(request);
        const { attemptId } = request.params;
        const conversation = await repo.findConversation(attemptId);
        await assertCanReadAttempt(deps, attemptId, conversation, creator.sub, 'Transcript');
        if (conversation) {
          return {
            messages: await repo.listMessages(attemptId),
            agentCalls: await agentCallsForOwner(agentCalls, deps, attemptId, creator.sub),
          };
        }
        // A candidate who never used the assistant has no conversation: the reader gets an empty one.
        return { messages: [], agentCalls: [] };
      },
    );

    app.get(
      '/internal/exams/:id/transcripts',
      {
        onRequest: [app.requireInternal],
        schema: {
          hide: true,
          params: ExamIdParamsSchema,
          response: { 200: InternalTranscriptsSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
        },
      },
      async (request): Promise<z.infer<typeof InternalTranscriptsSchema>> => ({
        transcripts: await repo.listTranscriptsOfExam(request.params.id),
      }),
    );

    // One attempt's conversation for its timeline (results-service checks the exam's owner before asking).
    app.get(
      '/internal/attempts/:attemptId/transcript',
      {
        onRequest: [app.requireInternal],
        schema: {
          hide: true,
          params: AttemptIdParamsSchema,
          response: { 200: InternalAttemptTranscriptSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
        },
      },
      async (request): Promise<z.infer<typeof InternalAttemptTranscriptSchema>> => ({
        attemptId: request.params.attemptId,
        messages: await repo.listMessages(request.params.attemptId),
      }),
    );
  };
}
