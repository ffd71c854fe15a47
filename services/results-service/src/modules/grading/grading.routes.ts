import { ErrorBodySchema } from '@exam/domain/errors';
import {
  BulkResultsReportSchema,
  BulkResultsSchema,
  ExamReleaseReportSchema,
  GradeResultSchema,
  RegradeQuerySchema,
  RegradeReportSchema,
  ReleaseSchema,
  ResultDetailSchema,
  ResultFileParamsSchema,
  ResultIdParamsSchema,
} from '@exam/domain/result';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import { actorOf } from '../../access/exam-guard.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BulkResultsService } from './bulk.service.ts';
import type { GradingService } from './grading.service.ts';
import type { RegradeService } from './regrade.service.ts';
import type { ReleaseNotices } from './release-notices.ts';
import type { ResultsService } from '../results/results.service.ts';
import type { TestGradingService } from './test-grading.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const ExamParamsSchema = z.object({ examId: z.string().min(1).max(64) });

/**
 * Grading, releases and regrades, for the exam's owner and the members whose role allows it (a grader releases only
 * with mayRelease): another creator's result or exam answers 404 as if it did not exist, a role without the
 * capability 403.
 */
export function gradingRoutes(services: {
  results: ResultsService;
  grading: GradingService;
  bulk: BulkResultsService;
  regrade: RegradeService;
  releaseNotices?: ReleaseNotices;
  testGrading?: TestGradingService;
}) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guard = { onRequest: app.requireCreator };

    app.patch(
      '/api/results/:id',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description:
            "Sets or removes the grader's points, feedback and rubric criteria per question; the score is recomputed on the server. The same request twice changes nothing the second time. Overriding the points of a question whose tests have run needs a reason (400 naming grading.<n>.reason), kept in the history.",
          params: ResultIdParamsSchema,
          body: GradeResultSchema,
          response: { 200: ResultDetailSchema, ...errors },
        },
        preHandler: app.requireCapability('results:grade', { result: 'id' }),
      },
      async (request) => {
        const creator = actorOf(request);
        await services.grading.grade(request.params.id, creator, request.body.grading);
        return services.results.detail(request.params.id, creator.sub);
      },
    );

    const testGrading = services.testGrading;
    if (testGrading)
      app.post(
        '/api/results/:id/questions/:questionIndex/rerun-tests',
        {
          ...guard,
          schema: {
            tags: ['grading'],
            description:
              "Runs a test-graded coding question's tests again on the submitted code (after the runner was unavailable or failed): the question is pending again until the new verdicts land. A grader's mark stays. 400 when the question is not graded by tests.",
            params: ResultFileParamsSchema,
            response: { 200: ResultDetailSchema, ...errors },
          },
          preHandler: app.requireCapability('results:grade', { result: 'id' }),
        },
        async (request) => {
          const creator = actorOf(request);
          await testGrading.rerun(request.params.id, creator, request.params.questionIndex);
          return services.results.detail(request.params.id, creator.sub);
        },
      );

    app.post(
      '/api/results/:id/release',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description: 'Shows (or hides) the result to its candidate. A result still awaiting grading answers 409.',
          params: ResultIdParamsSchema,
          body: ReleaseSchema,
          response: { 200: ResultDetailSchema, ...errors, 409: ErrorBodySchema },
        },
        preHandler: app.requireCapability('results:release', { result: 'id' }),
      },
      async (request) => {
        const creator = actorOf(request);
        await services.grading.release(request.params.id, creator, request.body.released);
        const detail = await services.results.detail(request.params.id, creator.sub);
        if (request.body.released) services.releaseNotices?.afterRelease(detail.examId);
        return detail;
      },
    );

    app.post(
      '/api/results/bulk',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description:
            'Applies one action to many of your results at once, in one transaction: score-unanswered gives 0 to every question still awaiting grading that its candidate left unanswered (kept in the history as your mark); release and unrelease show or hide graded results, leaving pending ones. 404, with nothing changed, when any result named is not yours.',
          body: BulkResultsSchema,
          response: { 200: BulkResultsReportSchema, ...errors },
        },
      },
      async (request) => {
        const { examIds, ...report } = await services.bulk.apply(
          creatorOf(request),
          request.body.action,
          request.body.resultIds,
        );
        if (request.body.action === 'release')
          for (const examId of examIds) services.releaseNotices?.afterRelease(examId);
        return report;
      },
    );

    app.post(
      '/api/exams/:examId/release',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description:
            'Releases (or hides) every graded result of the exam; results awaiting grading are counted and left.',
          params: ExamParamsSchema,
          body: ReleaseSchema,
          response: { 200: ExamReleaseReportSchema, ...errors, 502: ErrorBodySchema, 503: ErrorBodySchema },
        },
        preHandler: app.requireCapability('results:release', { exam: 'examId' }),
      },
      async (request) => {
        const report = await services.grading.releaseExam(
          request.params.examId,
          actorOf(request),
          request.body.released,
        );
        if (request.body.released) services.releaseNotices?.afterRelease(request.params.examId);
        return report;
      },
    );

    app.post(
      '/api/exams/:examId/regrade',
      {
        ...guard,
        schema: {
          tags: ['grading'],
          description:
            "Re-scores every result with the exam's current keys and points; grader's marks are kept. dryRun=true (the default) only reports.",
          params: ExamParamsSchema,
          querystring: RegradeQuerySchema,
          response: { 200: RegradeReportSchema, ...errors, 502: ErrorBodySchema, 503: ErrorBodySchema },
        },
        preHandler: app.requireCapability('results:grade', { exam: 'examId' }),
      },
      async (request) =>
        services.regrade.regrade(request.params.examId, actorOf(request), request.query.dryRun === 'true'),
    );
  };
}
