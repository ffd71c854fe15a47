import { AnswerParamsSchema, AttemptParamsSchema } from '@exam/domain/attempt';
import { ErrorBodySchema } from '@exam/domain/errors';
import { PracticeCheckBodySchema, PracticeCheckSchema, ReviewSchema } from '@exam/domain/practice';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AttemptReviewService } from './attempt-review.service.ts';
import { ownAttempt } from './attempts.routes.ts';
import type { CheckAnswerService } from './check-answer.service.ts';
import { RetryLaterError } from './retry-later.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** Checking answers in a practice exam, and the candidate's review (docs/product.md#practice-and-review). */
export function practiceRoutes(checks: CheckAnswerService, reviews: AttemptReviewService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/attempts/:attemptId/questions/:questionIndex/check',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "A practice exam only (403 otherwise): saves the answer as PUT .../answers/{questionIndex} does (the page's seq; 409 when the attempt is closed or the section locked), scores it against the attempt's snapshot and answers the verdict, the points, the creator's feedback (general, the verdict's, the chosen option's) and, when the exam shows keys, the key. At most 60 checks per attempt and minute (429 with Retry-After).",
          params: AnswerParamsSchema,
          body: PracticeCheckBodySchema,
          response: { 200: PracticeCheckSchema, ...errors, 409: ErrorBodySchema, 429: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        try {
          return await checks.check(request.params.attemptId, request.params.questionIndex, request.body);
        } catch (err) {
          if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );

    app.get(
      '/api/attempts/:attemptId/review',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "The candidate's review: each question as they saw it, their answer, points, verdict, the grader's feedback, the creator's feedback (when the review shows it) and the key (when the exam shows keys). A real exam: while its review window is open after release (403 with the reason otherwise). A practice attempt: as soon as it is submitted. 404 before a submission.",
          params: AttemptParamsSchema,
          response: { 200: ReviewSchema, ...errors, 502: ErrorBodySchema },
        },
      },
      async (request) => reviews.review(request.params.attemptId),
    );
  };
}
