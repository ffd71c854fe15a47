import { ErrorBodySchema } from '@exam/domain/errors';
import {
  GradingAgreementSchema,
  GradingSuggestionSchema,
  LatestSuggestionBatchSchema,
  QuestionGradingParamsSchema,
  ResultQuestionParamsSchema,
  StartSuggestionBatchSchema,
  SUGGESTION_SAMPLES_DEFAULT,
  SUGGESTION_SAMPLES_MAX,
  SuggestionBatchSchema,
} from '@exam/domain/question-grading';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GradingAgreementService } from './grading-agreement.service.ts';
import type { SuggestionBatchesService } from './suggestion-batches.service.ts';
import type { SuggestionsService } from './suggestions.service.ts';
import { actorOf, scopeOf } from '../../access/exam-guard.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const gatewayErrors = { 409: ErrorBodySchema, 429: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema };

/**
 * POST …/suggestion's body, which may be left out: how many times to sample the suggestion (samples that disagree
 * flag the answer), SUGGESTION_SAMPLES_DEFAULT unless given. A request without a body reaches the schema as null.
 */
const SuggestBodySchema = z
  .object({ samples: z.number().int().min(1).max(SUGGESTION_SAMPLES_MAX).default(SUGGESTION_SAMPLES_DEFAULT) })
  .nullish();

const BatchParamsSchema = QuestionGradingParamsSchema.extend({ batchId: z.string().min(1).max(64) });

/**
 * AI-suggested marks and their agreement with the graders (docs/product.md#ai-suggested-marks), for the exam's
 * owner only: anyone else's result or exam answers 404 as if it did not exist. Questions are numbered as the exam
 * numbers them.
 */
export function suggestionsRoutes(services: {
  suggestions: SuggestionsService;
  batches: SuggestionBatchesService;
  agreement: GradingAgreementService;
}) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guard = { onRequest: app.requireCreator };

    app.post(
      '/api/results/:resultId/questions/:questionIndex/suggestion',
      {
        ...guard,
        preHandler: app.requireCapability('results:grade', { result: 'resultId' }),
        schema: {
          tags: ['grading'],
          description:
            "Asks the exam's AI provider (through llm-gateway) for a suggested mark of one answer: points per rubric criterion, a short rationale quoting the answer, and whether its samples disagreed (uncertain). Only the question and the answer's text are sent, with the candidate's name, ID and e-mail masked. Never applied: a grader accepts or edits it. 400 for a question no grader marks or an answer without text; 409 without a provider, 429 once the exam's grading budget is spent, 502 when the provider failed, 503 when the AI service cannot be reached.",
          params: ResultQuestionParamsSchema,
          body: SuggestBodySchema,
          response: { 201: GradingSuggestionSchema, ...errors, ...gatewayErrors },
        },
      },
      async (request, reply) => {
        const { resultId, questionIndex } = request.params;
        const suggestion = await services.suggestions.suggest(
          actorOf(request),
          resultId,
          questionIndex,
          request.body?.samples ?? SUGGESTION_SAMPLES_DEFAULT,
        );
        return reply.status(201).send(suggestion);
      },
    );

    app.post(
      '/api/exams/:examId/questions/:questionIndex/suggestions',
      {
        ...guard,
        preHandler: app.requireCapability('results:grade', { exam: 'examId' }),
        schema: {
          tags: ['grading'],
          description:
            "Starts a batch of suggested marks over the question's answers (scope: unmarked, all, or the listed results); its answers are fixed now: answers a grader marks, with text, and no current suggestion. It runs in the background on any replica, at most `concurrency` provider calls at once, within the exam's grading budget; poll …/suggestions/latest. 409 while another batch of the question runs.",
          params: QuestionGradingParamsSchema,
          // Without a body: every default (the unmarked answers, 4 calls at once, 3 samples each).
          body: StartSuggestionBatchSchema.nullish(),
          response: { 202: SuggestionBatchSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const { examId, questionIndex } = request.params;
        const input = request.body ?? StartSuggestionBatchSchema.parse({});
        const batch = await services.batches.start(actorOf(request), examId, questionIndex, input);
        return reply.status(202).send(batch);
      },
    );

    app.get(
      '/api/exams/:examId/questions/:questionIndex/suggestions/latest',
      {
        ...guard,
        preHandler: app.requireCapability('results:grade', { exam: 'examId' }),
        schema: {
          tags: ['grading'],
          description: "The question's newest suggestion batch with its progress, or null when none was started.",
          params: QuestionGradingParamsSchema,
          response: { 200: LatestSuggestionBatchSchema, ...errors },
        },
      },
      async (request) => {
        const { examId, questionIndex } = request.params;
        return { batch: await services.batches.latest(actorOf(request), examId, questionIndex) };
      },
    );

    app.post(
      '/api/exams/:examId/questions/:questionIndex/suggestions/:batchId/cancel',
      {
        ...guard,
        preHandler: app.requireCapability('results:grade', { exam: 'examId' }),
        schema: {
          tags: ['grading'],
          description:
            'Asks a running batch to stop: the replica running it stops within a heartbeat (answers in flight are kept). 409 when it is not running.',
          params: BatchParamsSchema,
          response: { 200: SuggestionBatchSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => {
        const { examId, questionIndex, batchId } = request.params;
        return services.batches.cancel(actorOf(request), examId, questionIndex, batchId);
      },
    );

    app.get(
      '/api/exams/:examId/grading/agreement',
      {
        ...guard,
        preHandler: app.requireCapability('insights:read', { exam: 'examId' }),
        schema: {
          tags: ['grading'],
          description:
            "How far the AI's suggested marks agree with the graders', per question (the exam's numbering) with at least one suggestion: exact agreement, Cohen's κ, quadratic-weighted κ with a 95% bootstrap interval and the mean absolute difference, over the answers a grader marked that have a current suggestion.",
          params: z.object({ examId: z.string().min(1).max(64) }),
          response: { 200: GradingAgreementSchema, ...errors },
        },
      },
      async (request) => services.agreement.ofExam(request.params.examId, scopeOf(request).ownerId),
    );
  };
}
