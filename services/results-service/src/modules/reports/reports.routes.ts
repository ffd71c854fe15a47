import {
  CandidateReportSchema,
  CreateReportLinkSchema,
  CreatedReportLinkSchema,
  ReportLinkListSchema,
  ReportLinkParamsSchema,
  ReportLinkSchema,
  ReportTokenParamsSchema,
} from '@exam/domain/candidate-report';
import { ErrorBodySchema } from '@exam/domain/errors';
import { ResultIdParamsSchema } from '@exam/domain/result';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RetryLaterError } from '../attempts/retry-later.ts';
import type { ReportsService } from './reports.service.ts';
import { actorOf, scopeOf } from '../../access/exam-guard.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/**
 * What every answer of the public read carries, the 404 and 429 too: no cache keeps it (a revoked link must stop
 * working at once, and a shared computer's cache must not hold the report), the token in the URL goes to no other
 * site as a Referer, and search engines leave it out.
 */
function privateHeaders(reply: FastifyReply) {
  reply
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow');
}

export type ReportReadLimit = (ip: string) => Promise<void>;

/** Share links for the exam's owner; the report itself for anyone holding a live link. */
export function reportsRoutes(service: ReportsService, limitRead: ReportReadLimit) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guard = { onRequest: app.requireCreator };

    app.post(
      '/api/results/:id/report-links',
      {
        ...guard,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['results'],
          summary: 'Makes a link to the candidate report of a result, valid for a number of days',
          description:
            "The answer carries the link's token, this once: only its SHA-256 is kept, so a lost link cannot be shown again (make another). The report opens at the creator app's `/report/{token}` without signing in, until the link expires or is revoked. 404 for another creator's result.",
          params: ResultIdParamsSchema,
          body: CreateReportLinkSchema,
          response: { 201: CreatedReportLinkSchema, ...errors },
        },
      },
      async (request, reply) => {
        const link = await service.create(request.params.id, actorOf(request), request.body.expiresInDays);
        return reply.status(201).send(link);
      },
    );

    app.get(
      '/api/results/:id/report-links',
      {
        ...guard,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['results'],
          summary: "The result's report links, newest first, with their state and how often they were opened",
          params: ResultIdParamsSchema,
          response: { 200: ReportLinkListSchema, ...errors },
        },
      },
      async (request) => service.list(request.params.id, scopeOf(request).ownerId),
    );

    app.delete(
      '/api/results/:id/report-links/:linkId',
      {
        ...guard,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['results'],
          summary: 'Revokes a report link: it answers 404 from now on',
          params: ReportLinkParamsSchema,
          response: { 200: ReportLinkSchema, ...errors },
        },
      },
      async (request) => service.revoke(request.params.id, request.params.linkId, scopeOf(request).ownerId),
    );

    app.get(
      '/api/reports/:token',
      {
        onRequest: async (request, reply) => {
          privateHeaders(reply);
          try {
            await limitRead(request.ip);
          } catch (err) {
            if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
            throw err;
          }
        },
        schema: {
          tags: ['reports'],
          summary: 'The candidate report behind a share link (no sign-in)',
          description:
            "Score, results per topic, the percentile in the cohort (withheld below 5 graded candidates), time, how the answers came to be, the collaboration profile's levels and the integrity observations. Never the answers, the keys or other candidates' data. One 404 for a token that is unknown, expired or revoked; 429 past the reads allowed per network per minute. Sent with `Cache-Control: no-store`, `Referrer-Policy: no-referrer` and `X-Robots-Tag: noindex`.",
          params: ReportTokenParamsSchema,
          response: { 200: CandidateReportSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema },
        },
      },
      async (request) => service.read(request.params.token),
    );
  };
}
