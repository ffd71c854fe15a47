import { ErrorBodySchema } from '@exam/domain/errors';
import { InsightsQuerySchema, InsightsReportSchema } from '@exam/domain/insights';
import { SimilarityQuerySchema, SimilarityReportSchema } from '@exam/domain/similarity';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { textOf, type InsightsCache } from './insights-cache.ts';
import type { InsightsService } from './insights.service.ts';
import { createPhaseTimings } from './phase-timings.ts';
import { scopeOf } from '../../access/exam-guard.ts';

export type InsightsRouteOptions = {
  /** Adds a Server-Timing header with the report's phases (database, statistics, Rasch, serialization); for benchmarks. */
  serverTiming?: boolean;
};

/** Whether an Accept-Encoding header (RFC 9110 §12.5.3) takes gzip: named, or `*`, with a weight above 0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((entry) => {
    const [coding, ...params] = entry.split(';').map((p) => p.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The psychometrics report of an exam, for its owner only (docs/product.md#insights). */
export function insightsRoutes(service: InsightsService, cache: InsightsCache, options: InsightsRouteOptions = {}) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const timingsOf = new WeakMap<object, ReturnType<typeof createPhaseTimings>>();

    app.get(
      '/api/exams/:examId/insights',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('insights:read', { exam: 'examId' }),
        schema: {
          tags: ['insights'],
          summary:
            'The psychometrics report of an exam (owner only); `model` picks the model abilities come from (default: by likelihood-ratio test)',
          params: z.object({ examId: z.string().min(1).max(64) }),
          querystring: InsightsQuerySchema,
          response: {
            200: InsightsReportSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
        // onSend sees the payload already serialized, so the time since the handler returned is the serialization.
        onSend: async (request, reply, payload) => {
          const timings = timingsOf.get(request);
          if (timings) reply.header('server-timing', timings.header(reply.elapsedTime));
          return payload;
        },
      },
      async (request, reply) => {
        const { examId } = request.params;
        const { model } = request.query;
        const ownerId = scopeOf(request).ownerId;
        const timings = options.serverTiming ? createPhaseTimings() : undefined;
        if (timings) timingsOf.set(request, timings);
        // Already JSON checked against InsightsReportSchema (insights-cache.ts): sent as it is, gzip when accepted.
        const body = await cache.reportJson(examId, ownerId, model, timings);
        reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
        if (acceptsGzip(request.headers['accept-encoding'])) {
          timings?.finish();
          return reply.header('content-encoding', 'gzip').send(body.gzip as never);
        }
        const text = await textOf(body);
        timings?.finish();
        return reply.send(text as never);
      },
    );

    app.get(
      '/api/exams/:examId/insights/similarity',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('insights:read', { exam: 'examId' }),
        schema: {
          tags: ['insights'],
          summary: 'Coding answers that look copied from each other or from the AI assistant (owner only)',
          params: z.object({ examId: z.string().min(1).max(64) }),
          querystring: SimilarityQuerySchema,
          response: {
            200: SimilarityReportSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request) => service.similarity(request.params.examId, scopeOf(request).ownerId, request.query.threshold),
    );
  };
}
