import { AttemptParamsSchema } from '@exam/domain/attempt';
import { AppError, ErrorBodySchema, ErrorCode } from '@exam/domain/errors';
import {
  AnnouncementSchema,
  CandidateLiveSchema,
  CreateAnnouncementSchema,
  EndAttemptResponseSchema,
  ExamLiveSchema,
  ResultLiveLogSchema,
} from '@exam/domain/live';
import { ResultIdParamsSchema } from '@exam/domain/result';
import { attemptOf } from '@exam/server-kit/plugins/auth';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LiveService } from './live.service.ts';
import { actorOf, scopeOf } from '../../access/exam-guard.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const ExamParamsSchema = z.object({ examId: z.string().min(1).max(64) });
const ExamAttemptParamsSchema = ExamParamsSchema.extend({ attemptId: z.string().min(1).max(64) });

/** A candidate's page counts as seen again at most this often (one write per attempt per interval). */
export const PRESENCE_MIN_GAP_MS = 10_000;

/** An attempt token reaches only its own attempt; any other id looks like it does not exist. */
async function ownAttempt(request: FastifyRequest) {
  const { attemptId } = request.params as { attemptId: string };
  if (attemptOf(request).sub !== attemptId) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
}

/**
 * An onResponse hook for the whole app: every request of a candidate's page that the server accepted
 * (answer saves, events, uploads, the live poll…) records when the page was last seen, after the
 * reply has gone, so it never slows the request down. A failure is only logged.
 */
export function recordPresence(service: LiveService, log: FastifyBaseLogger) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode >= 400) return;
    if (!request.routeOptions.url?.startsWith('/api/attempts/:attemptId')) return;
    const user = request.user;
    if (user?.kind !== 'attempt') return;
    try {
      await service.touch(user.sub, PRESENCE_MIN_GAP_MS);
    } catch (err) {
      log.warn({ err, attemptId: user.sub }, 'could not record when the candidate was last seen');
    }
  };
}

/** The live proctor view (docs/product.md#the-live-proctor-view): the exam's owner, and each candidate's poll. */
export function liveRoutes(service: LiveService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const creator = { onRequest: app.requireCreator };

    app.get(
      '/api/exams/:examId/live',
      {
        ...creator,
        preHandler: app.requireCapability('live:view', { exam: 'examId' }),
        schema: {
          tags: ['live'],
          description:
            'Who is sitting the exam now (and who submitted in the last hour): started, last seen, answered, warnings by kind, deadline and seconds left at serverNow; with the announcements sent. For its owner only; poll it every few seconds.',
          params: ExamParamsSchema,
          response: { 200: ExamLiveSchema, ...errors, 503: ErrorBodySchema },
        },
      },
      async (request) => service.examLive(request.params.examId, scopeOf(request).ownerId),
    );

    app.post(
      '/api/exams/:examId/announcements',
      {
        ...creator,
        preHandler: app.requireCapability('live:control', { exam: 'examId' }),
        schema: {
          tags: ['live'],
          description:
            "Sends an announcement to everyone sitting the exam: each candidate's page shows it at its next poll (within seconds). Kept with the results.",
          params: ExamParamsSchema,
          body: CreateAnnouncementSchema,
          response: { 201: AnnouncementSchema, ...errors, 503: ErrorBodySchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.announce(request.params.examId, actorOf(request), request.body.text)),
    );

    app.post(
      '/api/exams/:examId/attempts/:attemptId/end',
      {
        ...creator,
        preHandler: app.requireCapability('live:control', { exam: 'examId' }),
        schema: {
          tags: ['live'],
          description:
            "Ends a candidate's attempt in progress: its saved answers are submitted and scored like any submission, and the examiner who ended it is recorded. 409 when it was already submitted.",
          params: ExamAttemptParamsSchema,
          response: { 200: EndAttemptResponseSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => service.end(request.params.examId, request.params.attemptId, actorOf(request)),
    );

    app.get(
      '/api/attempts/:attemptId/live',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['live'],
          description:
            "The candidate's page polls this: the current deadline (an extension shows here), whether the attempt was submitted or ended by the examiner, and the exam's announcements since the attempt started.",
          params: AttemptParamsSchema,
          response: { 200: CandidateLiveSchema, ...errors },
        },
      },
      async (request) => service.candidateLive(request.params.attemptId),
    );

    app.get(
      '/api/results/:id/announcements',
      {
        ...creator,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['live'],
          description:
            'The announcements made while this attempt was open, and who ended it from the live view, if anyone. For the exam owner only.',
          params: ResultIdParamsSchema,
          response: { 200: ResultLiveLogSchema, ...errors },
        },
      },
      async (request) => service.resultLog(request.params.id, scopeOf(request).ownerId),
    );
  };
}
