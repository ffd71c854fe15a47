import { CollaborationSuggestionReplySchema, CollaborationSuggestionRequestSchema } from '@exam/domain/collaboration';
import { ErrorBodySchema } from '@exam/domain/errors';
import {
  InternalSuggestReplySchema,
  InternalSuggestRequestSchema,
  QuestionGradingParamsSchema,
  SuggestionAvailabilitySchema,
} from '@exam/domain/question-grading';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CollaborationSuggester } from './suggest-collaboration.ts';
import type { GradingService } from './suggest-marks.ts';

const ExamParamsSchema = QuestionGradingParamsSchema.pick({ examId: true });
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  404: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};

/** An AbortSignal that fires when the caller (results-service) closes the request before the reply is written. */
export function callerSignal(reply: FastifyReply): { signal: AbortSignal; release(): void } {
  const caller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) caller.abort(new Error('the caller closed the request'));
  };
  reply.raw.once('close', onClose);
  return { signal: caller.signal, release: () => reply.raw.off('close', onClose) };
}

/**
 * AI-suggested marks and collaboration suggestions, for results-service only (the shared internal token; ARCHITECTURE.md's results-service ⇄
 * llm-gateway loop). results-service has already checked that the exam is the grader's.
 */
export function gradingRoutes(service: GradingService, collaboration: CollaborationSuggester) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/internal/exams/:examId/grading-suggestions',
      {
        onRequest: [app.requireInternal],
        schema: {
          hide: true,
          params: ExamParamsSchema,
          body: InternalSuggestRequestSchema,
          response: { 200: InternalSuggestReplySchema, 409: ErrorBodySchema, 429: ErrorBodySchema, ...errors },
        },
      },
      async (request, reply) => {
        // results-service gave up (a cancelled batch, a timeout): the provider calls stop too.
        const caller = callerSignal(reply);
        try {
          return await service.suggest(request.params.examId, request.body, {
            signal: caller.signal,
            log: request.log,
          });
        } finally {
          caller.release();
        }
      },
    );

    app.post(
      '/internal/exams/:examId/collaboration-suggestions',
      {
        onRequest: [app.requireInternal],
        schema: {
          hide: true,
          params: ExamParamsSchema,
          body: CollaborationSuggestionRequestSchema,
          response: {
            200: CollaborationSuggestionReplySchema,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const caller = callerSignal(reply);
        try {
          return await collaboration.suggest(request.params.examId, request.body, {
            signal: caller.signal,
            log: request.log,
          });
        } finally {
          caller.release();
        }
      },
    );

    app.get(
      '/internal/exams/:examId/grading-usage',
      {
        onRequest: [app.requireInternal],
        schema: { hide: true, params: ExamParamsSchema, response: { 200: SuggestionAvailabilitySchema, ...errors } },
      },
      async (request) => service.availability(request.params.examId),
    );
  };
}
