import { ErrorBodySchema } from '@exam/domain/errors';
import {
  AnswerGroupsSchema,
  DetachAnswerSchema,
  QuestionAnswersQuerySchema,
  QuestionAnswersSchema,
  QuestionGradingParamsSchema,
  QuestionMarkReportSchema,
  QuestionMarkSchema,
} from '@exam/domain/question-grading';
import { actorOf, scopeOf } from '../../access/exam-guard.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { QuestionGradingService } from './question-grading.service.ts';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};

/**
 * Grading by question, for the exam's owner and the members who grade (another creator's exam answers 404 as if it
 * did not exist, a role that does not grade 403).
 * `questionIndex` is always the exam's own numbering, never a candidate's shuffled place.
 */
export function questionGradingRoutes(service: QuestionGradingService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guard = { onRequest: app.requireCreator };

    app.get(
      '/api/exams/:examId/questions/:questionIndex/answers',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description:
            "Every submitted answer to one question (the exam's numbering), in submission order, with its mark, group, the newest AI suggestion and who decided the mark; the question's groups, progress, comment bank and whether suggestions can be asked for (false, with the reason, when llm-gateway cannot be reached). Candidates are hidden (candidate: null, numbered in submission order) unless names=true.",
          params: QuestionGradingParamsSchema,
          querystring: QuestionAnswersQuerySchema,
          response: { 200: QuestionAnswersSchema, ...errors },
        },
        preHandler: app.requireCapability('results:read', { exam: 'examId' }),
      },
      async (request) => {
        const { examId, questionIndex } = request.params;
        return service.answers(examId, scopeOf(request).ownerId, questionIndex, request.query.names === 'true');
      },
    );

    app.get(
      '/api/exams/:examId/questions/:questionIndex/answer-groups',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description:
            "The question's answer groups: identical answers after the question's own normalisation, and near-identical ones (a few typing slips), recomputed from the current answers on every read. An answer taken out of its group, or a file without readable text, is a group of its own.",
          params: QuestionGradingParamsSchema,
          response: { 200: AnswerGroupsSchema, ...errors },
        },
        preHandler: app.requireCapability('results:grade', { exam: 'examId' }),
      },
      async (request) => service.groups(request.params.examId, scopeOf(request).ownerId, request.params.questionIndex),
    );

    app.post(
      '/api/exams/:examId/questions/:questionIndex/marks',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description:
            "One mark (points, feedback, rubric criteria) for every listed result's answer to the question, in one transaction: each changed result gets its own grade-history entry; all or none. An unknown result, or one of another exam, is a 404 and nothing changes; a bad mark is a 400 naming the field. With suggestionId the history says the grader accepted the AI's suggestion (same points and criteria) or edited it. The same mark twice changes nothing the second time (counted as unchanged).",
          params: QuestionGradingParamsSchema,
          body: QuestionMarkSchema,
          response: { 200: QuestionMarkReportSchema, ...errors },
        },
        preHandler: app.requireCapability('results:grade', { exam: 'examId' }),
      },
      async (request) =>
        service.mark(request.params.examId, actorOf(request), request.params.questionIndex, request.body),
    );

    app.post(
      '/api/exams/:examId/questions/:questionIndex/detachments',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description:
            'Takes an answer out of its group so it is marked alone (detached: true), or puts it back; answers the groups as they are now.',
          params: QuestionGradingParamsSchema,
          body: DetachAnswerSchema,
          response: { 200: AnswerGroupsSchema, ...errors },
        },
        preHandler: app.requireCapability('results:grade', { exam: 'examId' }),
      },
      async (request) =>
        service.detach(request.params.examId, scopeOf(request).ownerId, request.params.questionIndex, request.body),
    );
  };
}
