import {
  MAX_RUN_REPOSITORY_BYTES,
  ReferenceRunRequestSchema,
  RunLookupSchema,
  RunReportSchema,
  RunReportsSchema,
  RunRequestSchema,
} from '@exam/domain/coding';
import { ErrorBodySchema } from '@exam/domain/errors';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertCan } from '../../access/exam-access.ts';
import type { ExamDirectory } from '../../deps.ts';
import { ReferenceRunsBusyError, type RunnerService } from './runner.service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema };
const RunParamsSchema = z.object({ runId: z.string().min(1).max(64) });
const WaitQuerySchema = z.object({ waitMs: z.coerce.number().int().min(0).max(25_000).default(0) });

/** How long a creator's reference run is waited for before its report is returned as it stands. */
const REFERENCE_WAIT_MS = 60_000;
/** 50 tests of 256 KB input and 256 KB expected output each, the code, and an agentic task's repository. */
const RUN_BODY_LIMIT = 32 * 1024 * 1024 + 2 * MAX_RUN_REPOSITORY_BYTES;

/**
 * The code runner (ARCHITECTURE.md, "Code runner"): results-service queues candidates' runs on the internal
 * routes; creators run their reference solution from the question editor.
 */
export function runnerRoutes(service: RunnerService, directory: Pick<ExamDirectory, 'examAccess'>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/internal/runs',
      {
        bodyLimit: RUN_BODY_LIMIT,
        onRequest: app.requireInternal,
        schema: { hide: true, body: RunRequestSchema, response: { 202: RunReportSchema, ...errors } },
      },
      async (request, reply) => reply.status(202).send(await service.enqueue(request.body)),
    );

    app.get(
      '/internal/runs/:runId',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          params: RunParamsSchema,
          querystring: WaitQuerySchema,
          response: { 200: RunReportSchema, ...errors },
        },
      },
      async (request) => service.get(request.params.runId, request.query.waitMs),
    );

    app.post(
      '/internal/runs/lookup',
      {
        onRequest: app.requireInternal,
        schema: { hide: true, body: RunLookupSchema, response: { 200: RunReportsSchema, ...errors } },
      },
      async (request) => ({ runs: await service.lookup(request.body.ids) }),
    );

    app.post(
      '/api/runner/reference',
      {
        bodyLimit: RUN_BODY_LIMIT,
        onRequest: app.requireCreator,
        schema: {
          tags: ['runner'],
          summary: "Runs a question's tests against the creator's reference solution",
          body: ReferenceRunRequestSchema,
          response: { 200: RunReportSchema, 429: ErrorBodySchema, ...errors },
        },
      },
      async (request, reply) => {
        const creatorId = creatorOf(request).sub;
        // A run for an exam is part of authoring it (a run without one is the creator's own scratch run).
        if (request.body.examId) await assertCan(directory, { examId: request.body.examId }, creatorId, 'exam:edit');
        try {
          return await service.reference(creatorId, request.body, REFERENCE_WAIT_MS);
        } catch (err) {
          if (err instanceof ReferenceRunsBusyError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );

    app.get(
      '/api/runner/runs/:runId',
      {
        onRequest: app.requireCreator,
        schema: {
          tags: ['runner'],
          summary: "A reference run's report (the creator's own runs only)",
          params: RunParamsSchema,
          querystring: WaitQuerySchema,
          response: { 200: RunReportSchema, ...errors },
        },
      },
      async (request) => service.get(request.params.runId, request.query.waitMs, creatorOf(request).sub),
    );
  };
}
