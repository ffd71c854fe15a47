import { AnswerParamsSchema } from '@exam/domain/attempt';
import { RunReportSchema } from '@exam/domain/coding';
import { ErrorBodySchema } from '@exam/domain/errors';
import { RunWaitQuerySchema, TestRunBodySchema, TestRunParamsSchema } from '@exam/domain/result';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownAttempt } from './attempts.routes.ts';
import { RetryLaterError } from './retry-later.ts';
import type { TestRunsService } from './test-runs.service.ts';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};

/** The candidate's "Run tests" on a coding question (docs/product.md#coding-questions). */
export function testRunsRoutes(service: TestRunsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/attempts/:attemptId/questions/:questionIndex/test-runs',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "Runs the code against the question's visible tests (hidden tests are never sent), the question as this attempt shows it (questionIndex is the candidate's). With a workspace file named by the question and the exam's coding workspace on, the file wins when it exists. Waits up to 20 s: 200 with the finished run, 202 while it is queued or running (read it with GET …/test-runs/{runId}). 400 without visible tests, 409 once the attempt is closed, 429 past the runs allowed per minute, 503 without a code sandbox.",
          params: AnswerParamsSchema,
          body: TestRunBodySchema,
          response: {
            200: RunReportSchema,
            202: RunReportSchema,
            ...errors,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        try {
          const { status, report } = await service.run(
            request.params.attemptId,
            request.params.questionIndex,
            request.body.code,
          );
          return await reply.status(status).send(report);
        } catch (err) {
          if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );

    app.get(
      '/api/attempts/:attemptId/test-runs/:runId',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "One of this attempt's test runs, after waiting up to waitMs for it to finish: 200 when finished, 202 while queued or running. Another attempt's run is a 404.",
          params: TestRunParamsSchema,
          querystring: RunWaitQuerySchema,
          response: { 200: RunReportSchema, 202: RunReportSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { status, report } = await service.get(
          request.params.attemptId,
          request.params.runId,
          request.query.waitMs,
        );
        return reply.status(status).send(report);
      },
    );
  };
}
