import multipart from '@fastify/multipart';
import {
  AnswerParamsSchema,
  AttemptParamsSchema,
  AttemptStateSchema,
  fileTooLargeMessage,
  RecordEventsResponseSchema,
  RecordEventsSchema,
  SaveAnswerResponseSchema,
  SaveAnswerSchema,
  StartAttemptResponseSchema,
  StartAttemptSchema,
  SubmitResponseSchema,
  UploadResponseSchema,
} from '@exam/domain/attempt';
import { UnlockAttemptResponseSchema, UnlockAttemptSchema } from '@exam/domain/attempt-binding';
import type { AttemptClaims } from '@exam/domain/auth';
import { AppError, ErrorBodySchema, ErrorCode } from '@exam/domain/errors';
import { PublicExamSchema } from '@exam/domain/public-exam';
import { CandidateResultSchema } from '@exam/domain/result';
import { AdvanceSectionSchema, SectionStateSchema } from '@exam/domain/sections';
import { attemptOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.ts';
import type { AttemptRow } from './attempts.repository.ts';
import type { AttemptsService } from './attempts.service.ts';
import { RetryLaterError } from './retry-later.ts';
import type { StartService } from './start-attempt.service.ts';
import type { CandidateResultService } from './candidate-result.service.ts';
import { actorOf } from '../../access/exam-guard.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const HOUR_MS = 3600_000;

/**
 * Route guard, after `requireAttempt`: an attempt token reaches only its own attempt; any other id looks
 * like it does not exist. A preHandler, so the params are validated first (a malformed request is still 400).
 */
export async function ownAttempt(request: FastifyRequest) {
  const { attemptId } = request.params as { attemptId: string };
  if (attemptOf(request).sub !== attemptId) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
}

export function attemptsRoutes(
  service: AttemptsService,
  starts: StartService,
  results: CandidateResultService,
  deps: Pick<Deps, 'clock'>,
  opts: { uploadMaxBytes: number },
) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    await app.register(multipart, { limits: { fileSize: opts.uploadMaxBytes, files: 1, fields: 10 } });

    /**
     * Valid until a day past the deadline, or a day without a timer. The token only says who the candidate is:
     * every write is checked against the attempt's stored deadline, so the day grants no time. It covers the
     * final submit and an examiner's extension during the exam (live view, accommodations), which moves the
     * stored deadline but not a token already handed out; past it, the page goes back to the details form and
     * the candidate's browser resumes with its secret and a new token.
     */
    const signAttempt = (attempt: AttemptRow) => {
      const lifetimeMs = attempt.deadline
        ? Math.max(0, attempt.deadline.getTime() - deps.clock.now().getTime()) + 24 * HOUR_MS
        : 24 * HOUR_MS;
      const claims: AttemptClaims = {
        kind: 'attempt',
        sub: attempt.id,
        examId: attempt.examId,
        ownerId: attempt.ownerId,
        name: attempt.name,
        studentId: attempt.studentId,
      };
      return app.jwt.sign(claims, { expiresIn: `${Math.ceil(lifetimeMs / 1000)}s` });
    };

    app.post(
      '/api/attempts',
      {
        schema: {
          tags: ['attempts'],
          description:
            "Starts the attempt of this candidate ID (NFKC, invisible characters removed, look-alike letters folded, case-folded), or resumes it: silently with the resume secret this browser got, on another device with the resume code or the examiner's one-time unlock code. Without them: 403 naming the resumeCode field, nothing of the attempt revealed. Wrong resume codes per client, wrong access codes per client and per exam, and new attempts per address, per exam and address and per exam are limited (429 with Retry-After). A new attempt is refused with 409 outside the candidate's window (the opening or closing instant in the issue named opensAt or closesAt) and when no attempt is left; after a submitted attempt the next one needs the same proof as a resume. The deadline includes the candidate's extra time and never passes their window's close.",
          body: StartAttemptSchema,
          response: {
            201: StartAttemptResponseSchema,
            400: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        try {
          const { attempt, resumed, resumeSecret, resumeCode } = await starts.start(request.body, { ip: request.ip });
          return await reply.status(201).send({
            attemptId: attempt.id,
            token: signAttempt(attempt),
            startedAt: attempt.startedAt.toISOString(),
            deadline: attempt.deadline?.toISOString() ?? null,
            resumed,
            ...(resumeSecret ? { resumeSecret } : {}),
            ...(resumeCode ? { resumeCode } : {}),
          });
        } catch (err) {
          if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
          throw err;
        }
      },
    );

    app.post(
      '/api/attempts/unlock',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('live:control', { body: 'examId' }),
        schema: {
          tags: ['attempts'],
          description:
            "The exam's owner gets a one-time unlock code (unlockCode) to hand this candidate: typed where the resume code goes, it resumes their open attempt (once, for RESUME_UNLOCK_MINUTES), or begins the next attempt after a submitted one when attempts are left; that start gets a new resume code. The candidate ID alone never resumes. 404 when the caller owns no attempt of this candidate.",
          body: UnlockAttemptSchema,
          response: { 200: UnlockAttemptResponseSchema, ...errors },
        },
      },
      async (request) => starts.unlock(request.body.examId, request.body.studentId, actorOf(request)),
    );

    app.get(
      '/api/attempts/:attemptId',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "The attempt's state: the server's clock and deadline, the saved answers and, for an exam with sections, where the candidate is (the current section, when it began and ends, the sections locked, whether the assistant answers there). A section whose own time limit ran out has already given way to the next one.",
          params: AttemptParamsSchema,
          response: { 200: AttemptStateSchema, ...errors },
        },
      },
      async (request) => {
        return service.state(request.params.attemptId);
      },
    );

    app.get(
      '/api/attempts/:attemptId/exam',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            'The exam as this attempt shows it: the snapshot taken at start (what is graded), stripped like GET /api/public/exams/{id}. With sections, `questions` holds only those of the sections the candidate has reached (the start of their list, so indices never move); `questionCount` and `sections` describe the whole exam.',
          params: AttemptParamsSchema,
          response: { 200: PublicExamSchema, ...errors, 502: ErrorBodySchema },
        },
      },
      async (request) => {
        return service.examView(request.params.attemptId);
      },
    );

    app.put(
      '/api/attempts/:attemptId/answers/:questionIndex',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "Saves one answer (the highest seq wins). 409 when the attempt is closed, and with sections when the question's section is locked (SECTION_LOCKED) or not reached yet (SECTION_NOT_REACHED).",
          params: AnswerParamsSchema,
          body: SaveAnswerSchema,
          response: { 200: SaveAnswerResponseSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => {
        return service.saveAnswer(request.params.attemptId, request.params.questionIndex, request.body);
      },
    );

    app.post(
      '/api/attempts/:attemptId/sections/advance',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "Leaves section `from` for the next one, which starts now. Idempotent: when the candidate is already past `from` (a retry, or the section's time limit moved them) it answers where they are, and the last section stays. Sections before one with the assistant are locked once left. 409 while the attempt is closed (submitted, or its time is up), SECTION_NOT_REACHED for a section not reached yet, CONFLICT for an exam without sections.",
          params: AttemptParamsSchema,
          body: AdvanceSectionSchema,
          response: { 200: SectionStateSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => service.advanceSection(request.params.attemptId, request.body.from),
    );

    app.post(
      '/api/attempts/:attemptId/events',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          params: AttemptParamsSchema,
          body: RecordEventsSchema,
          response: { 202: RecordEventsResponseSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        return reply.status(202).send(await service.recordEvents(request.params.attemptId, request.body.events));
      },
    );

    app.post(
      '/api/attempts/:attemptId/files/:questionIndex',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          consumes: ['multipart/form-data'],
          params: AnswerParamsSchema,
          response: { 200: UploadResponseSchema, ...errors, 409: ErrorBodySchema, 413: ErrorBodySchema },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw new AppError(ErrorCode.VALIDATION, 'Send the file as multipart/form-data');
        const part = await request.file();
        if (!part) throw new AppError(ErrorCode.VALIDATION, 'No file was sent');
        let content: Buffer;
        try {
          content = await part.toBuffer();
        } catch (err) {
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, fileTooLargeMessage(opts.uploadMaxBytes));
          }
          throw err;
        }
        const fileName = part.filename.trim().slice(0, 255) || 'upload';
        return service.saveFile(request.params.attemptId, request.params.questionIndex, {
          fileName,
          mimeType: part.mimetype || 'application/octet-stream',
          content,
        });
      },
    );

    app.get(
      '/api/attempts/:attemptId/result',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['attempts'],
          description:
            "The candidate's own result, as the exam's release policy allows: 403 with the reason while it may not be shown. Answer keys only when the exam shows them.",
          params: AttemptParamsSchema,
          response: { 200: CandidateResultSchema, ...errors, 502: ErrorBodySchema, 503: ErrorBodySchema },
        },
      },
      async (request) => results.result(request.params.attemptId),
    );

    app.post(
      '/api/attempts/:attemptId/submit',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: { tags: ['attempts'], params: AttemptParamsSchema, response: { 200: SubmitResponseSchema, ...errors } },
      },
      async (request) => {
        return service.submit(request.params.attemptId);
      },
    );
  };
}
