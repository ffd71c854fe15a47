import { ErrorBodySchema } from '@exam/domain/errors';
import {
  CHAT_MAX_FILE_BYTES,
  CHAT_MAX_FILES,
  ChatRequestSchema,
  ChatStreamEventSchema,
  TestChatRequestSchema,
} from '@exam/domain/llm';
import { attemptOf, creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { LlmClient } from '../../adapters/providers/types.ts';
import { BudgetRefusal } from './budgets.ts';
import type { ChatService } from './chat.service.ts';
import { StreamsEnd, streamReply } from './stream-reply.ts';

// Base64 grows bytes by 4/3; the rest is room for the message and JSON.
const CHAT_BODY_LIMIT = Math.ceil((CHAT_MAX_FILES * CHAT_MAX_FILE_BYTES * 4) / 3) + 1024 * 1024;

const streamed = ChatStreamEventSchema.describe(
  'text/event-stream: one `data: <event JSON>` frame per event; ends with done, withheld, error or interrupted (send the message again with the same clientMessageId)',
);
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  413: ErrorBodySchema,
  429: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};

/** coalesceMs: SSE_COALESCE_MS; streamsEnd: aborted when a shutting-down replica's drain time is up. */
export function chatRoutes(
  service: ChatService,
  llm: LlmClient,
  opts: { coalesceMs: number; streamsEnd: AbortSignal },
) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const streaming = { coalesceMs: opts.coalesceMs, streamsEnd: new StreamsEnd(opts.streamsEnd) };

    app.post(
      '/api/llm/chat',
      {
        onRequest: [app.requireAttempt],
        bodyLimit: CHAT_BODY_LIMIT,
        schema: {
          tags: ['chat'],
          security: [{ bearer: [] }],
          description:
            "The candidate's message, answered as a stream. 409 ATTEMPT_CLOSED once the attempt is closed, and 409 CONFLICT while the candidate's current section has no assistant (results-service says so; the message is not kept).",
          body: ChatRequestSchema,
          response: { 200: streamed, ...errors },
        },
      },
      async (request, reply) => {
        const chat = await service.prepareCandidateChat(attemptOf(request), request.body).catch((err: unknown) => {
          if (err instanceof BudgetRefusal) void reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        });
        await streamReply(request, reply, llm, chat, (text) => service.estimatedUsage(chat.request, text), streaming);
        return reply;
      },
    );

    app.post(
      '/api/llm/test-chat',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['chat'],
          security: [{ bearer: [] }],
          body: TestChatRequestSchema,
          response: { 200: streamed, ...errors },
        },
      },
      async (request, reply) => {
        const chat = await service.prepareTestChat(creatorOf(request), request.body);
        await streamReply(request, reply, llm, chat, (text) => service.estimatedUsage(chat.request, text), streaming);
        return reply;
      },
    );
  };
}
