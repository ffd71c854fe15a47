import { AnswerParamsSchema, AttemptParamsSchema } from '@exam/domain/attempt';
import {
  CheckRunSchema,
  ChosenLanguagesSchema,
  ConsoleRunBodySchema,
  ConsoleRunSchema,
  LanguageChoiceResultSchema,
  LanguageChoiceSchema,
  RunReportSchema,
} from '@exam/domain/coding';
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
            "Runs the code against the question's visible tests (hidden tests are never sent), the question as this attempt shows it (questionIndex is the candidate's), in `language` when the question lets the candidate choose (400 naming `language` for another). With the exam's coding workspace on, the question's workspace file wins when it exists; `answer` says what ran (the page saves a workspace file as the answer) and whether the workspace was unreachable. Waits up to 20 s: 200 with the finished run, 202 while it is queued or running (read it with GET …/test-runs/{runId}). 400 without visible tests, 409 once the attempt is closed, 429 past the runs allowed per minute, 503 without a code sandbox.",
          params: AnswerParamsSchema,
          body: TestRunBodySchema,
          response: {
            200: CheckRunSchema,
            202: CheckRunSchema,
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
            request.body.language,
          );
          return await reply.status(status).send(report);
        } catch (err) {
          if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );

    app.post(
      '/api/attempts/:attemptId/questions/:questionIndex/console-runs',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "The candidate's console: runs the code (the question's workspace file when the exam's coding workspace is on and has it) on the custom input `stdin`, in the tests' sandbox (the question's limits, no network), and answers its stdout, stderr, exit code and time. No test is involved. Waits up to 20 s: 200 finished, 202 still running (read it with GET …/console-runs/{runId}). 400 for a question that is not coding or a language it does not allow, 409 once the attempt is closed, 429 past the runs allowed per minute, 503 without a code sandbox.",
          params: AnswerParamsSchema,
          body: ConsoleRunBodySchema,
          response: {
            200: ConsoleRunSchema,
            202: ConsoleRunSchema,
            ...errors,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        try {
          const { status, run } = await service.console(
            request.params.attemptId,
            request.params.questionIndex,
            request.body,
          );
          return await reply.status(status).send(run);
        } catch (err) {
          if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );

    app.put(
      '/api/attempts/:attemptId/questions/:questionIndex/language',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "The candidate's choice of language for a coding question whose creator allows several: kept with the attempt (an event of its record), used by Run, Run tests and grading, shown to the grader. 400 naming `language` for a language the question does not offer or a question with one language, 409 once the attempt is closed.",
          params: AnswerParamsSchema,
          body: LanguageChoiceSchema,
          response: { 200: LanguageChoiceResultSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) =>
        service.chooseLanguage(request.params.attemptId, request.params.questionIndex, request.body.language),
    );

    app.get(
      '/api/attempts/:attemptId/languages',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "The languages this attempt's candidate chose, by question index (the candidate's numbering); questions without a choice are absent.",
          params: AttemptParamsSchema,
          response: { 200: ChosenLanguagesSchema, ...errors },
        },
      },
      async (request) => service.languages(request.params.attemptId),
    );

    app.get(
      '/api/attempts/:attemptId/console-runs/:runId',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "One of this attempt's console runs, after waiting up to waitMs for it to finish: 200 when finished, 202 while queued or running. Another attempt's run is a 404.",
          params: TestRunParamsSchema,
          querystring: RunWaitQuerySchema,
          response: { 200: ConsoleRunSchema, 202: ConsoleRunSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { status, run } = await service.consoleRun(
          request.params.attemptId,
          request.params.runId,
          request.query.waitMs,
        );
        return reply.status(status).send(run);
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
