import { AttemptParamsSchema } from '@exam/domain/attempt';
import { ErrorBodySchema } from '@exam/domain/errors';
import {
  FollowUpForGraderSchema,
  FollowUpParamsSchema,
  FollowUpResultParamsSchema,
  FollowUpStateSchema,
  MarkFollowUpSchema,
  SavedFollowUpAnswerSchema,
  SaveFollowUpAnswerSchema,
  SubmitFollowUpAnswerSchema,
} from '@exam/domain/follow-up';
import { ResultIdParamsSchema } from '@exam/domain/result';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownAttempt } from '../attempts/attempts.routes.ts';
import type { FollowUpService } from './follow-up.service.ts';
import { actorOf, scopeOf } from '../../access/exam-guard.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/**
 * Follow-up questions after submit (docs/product.md#follow-up-questions): the candidate's routes (their own attempt's
 * token only; another attempt looks like none) and the grader's (the exam's creator only; 404 for anyone else).
 */
export function followUpRoutes(service: FollowUpService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const candidate = { onRequest: app.requireAttempt, preHandler: ownAttempt };

    app.get(
      '/api/attempts/:attemptId/follow-up',
      {
        ...candidate,
        schema: {
          tags: ['follow-up'],
          description:
            "The follow-up after submit: its status ('off' when the exam has none), the question on screen with its deadline, saved draft and seq, and the server's clock. A question whose time ran out is closed by this read (its draft is its answer) and the next one asked now.",
          params: AttemptParamsSchema,
          response: { 200: FollowUpStateSchema, ...errors },
        },
      },
      async (request) => service.state(request.params.attemptId),
    );

    app.post(
      '/api/attempts/:attemptId/follow-up/start',
      {
        ...candidate,
        schema: {
          tags: ['follow-up'],
          description:
            "Generates the follow-up questions from the candidate's own answers (once, whoever asks and however often) and asks the first. When llm-gateway cannot be reached, the exam has no usable assistant or its AI budget is spent, the follow-up is skipped with a note; the submission stands.",
          params: AttemptParamsSchema,
          response: { 200: FollowUpStateSchema, ...errors },
        },
      },
      async (request) => service.start(request.params.attemptId),
    );

    app.put(
      '/api/attempts/:attemptId/follow-up/:n/answer',
      {
        ...candidate,
        schema: {
          tags: ['follow-up'],
          description:
            'Saves the draft of the question on screen; a stale seq is ignored (the stored seq is answered). Taken until the deadline plus the grace exam saves get; after it, or once the answer was submitted, 409. 409 too for a question not asked yet.',
          params: FollowUpParamsSchema,
          body: SaveFollowUpAnswerSchema,
          response: { 200: SavedFollowUpAnswerSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => service.saveDraft(request.params.attemptId, request.params.n, request.body),
    );

    app.post(
      '/api/attempts/:attemptId/follow-up/:n/submit',
      {
        ...candidate,
        schema: {
          tags: ['follow-up'],
          description:
            "Submits the answer to a question and asks the next one now (after the last, the follow-up is done). A question whose time ran out keeps this answer if it comes within the grace; a repeat changes nothing. Answers the follow-up's state.",
          params: FollowUpParamsSchema,
          body: SubmitFollowUpAnswerSchema,
          response: { 200: FollowUpStateSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => service.submit(request.params.attemptId, request.params.n, request.body.answer),
    );

    app.get(
      '/api/results/:id/follow-up',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['follow-up'],
          description:
            "A result's follow-up for its grader: each question with the exam's own number of the question it probes, the candidate's answer, whether the time ran out, and its mark on the rubric copied at submission; the points are their own figure, never added to the score. 404 for another creator's result.",
          params: ResultIdParamsSchema,
          response: { 200: FollowUpForGraderSchema, ...errors },
        },
      },
      async (request) => service.forGrader(request.params.id, scopeOf(request).ownerId),
    );

    app.put(
      '/api/results/:id/follow-up/:n/mark',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('results:grade', { result: 'id' }),
        schema: {
          tags: ['follow-up'],
          description:
            "Marks a closed follow-up question with a level of the rubric (its index; its points are given), or clears the mark with level null. 400 naming level for a level outside the rubric; 409 while the question is still being answered; 404 for another creator's result.",
          params: FollowUpResultParamsSchema,
          body: MarkFollowUpSchema,
          response: { 200: FollowUpForGraderSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => service.mark(request.params.id, actorOf(request), request.params.n, request.body),
    );
  };
}
