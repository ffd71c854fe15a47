import { SaveOperationsSchema } from './answer-operations.ts';
import { CandidateIdSchema, CandidateNameSchema } from './candidate-id.ts';
import { z } from 'zod';
import { SectionStateSchema } from './sections.ts';
export { DEFAULT_UPLOAD_MAX_BYTES, formatBytes, fileTooLargeMessage, AttemptMessages } from './candidate-messages.ts';

/** Candidate attempts (docs/product.md#sitting-an-exam): the server owns the clock, the answers and the score. */

/** Seconds after the deadline during which in-flight saves are still accepted. */
export const DEADLINE_GRACE_SECONDS = 30;

export const StartAttemptSchema = z.object({
  examId: z.string().min(1).max(64),
  name: CandidateNameSchema,
  studentId: CandidateIdSchema,
  /** The secret this browser got when it started the attempt (attempt-binding.ts): a silent resume. */
  resumeSecret: z.string().max(200).optional(),
  /** The resume code shown on the device that started the attempt, typed on another device. */
  resumeCode: z.string().max(40).optional(),
  /** The exam's access code, when its access is `code` (cohort.ts). */
  accessCode: z.string().max(100).optional(),
  /** The token of a roster candidate's personal invitation link. */
  inviteToken: z.string().max(200).optional(),
  /**
   * The grant of an LMS launch (@exam/server-kit/lti-grant): the name and candidate ID it names replace the ones
   * sent, and the attempt records its LMS link.
   */
  ltiGrant: z.string().max(4000).optional(),
});
export type StartAttempt = z.infer<typeof StartAttemptSchema>;

export const StartAttemptResponseSchema = z.object({
  attemptId: z.string(),
  token: z.string(),
  startedAt: z.string(),
  /** null when the exam has no timer. */
  deadline: z.string().nullable(),
  resumed: z.boolean(),
  /**
   * Sent when the server issues them (the first start; a resume by code or by the examiner's unlock gets a
   * new secret for that device, and after an unlock a new code): the page keeps both, and shows the code.
   */
  resumeSecret: z.string().optional(),
  resumeCode: z.string().optional(),
});
export type StartAttemptResponse = z.infer<typeof StartAttemptResponseSchema>;

/** An answer: MCQ option text, short answer text, code, or 'File: {name}' for uploads. */
export const AnswerValueSchema = z.string().max(200_000);

export const SaveAnswerSchema = z.object({
  answer: AnswerValueSchema,
  /** Monotonic per question on the client; an older seq than the stored one is ignored. */
  seq: z.number().int().nonnegative(),
  /** The edits since the last acknowledged save (answer-operations.ts): stored once, in order, append-only. */
  operations: SaveOperationsSchema.optional(),
});
export type SaveAnswer = z.infer<typeof SaveAnswerSchema>;

export const SaveAnswerResponseSchema = z.object({
  questionIndex: z.number().int(),
  seq: z.number().int(),
  /** false when a newer write was already stored. */
  applied: z.boolean(),
  /**
   * How many of this question's operations the server holds after this save (the page's next `start`), when the
   * save carried operations; `operationsCapped` when the attempt reached its storage cap and the server keeps no
   * more (the answer itself is still saved: the page stops sending operations for this attempt).
   */
  operationsEnd: z.number().int().optional(),
  operationsCapped: z.boolean().optional(),
});
export type SaveAnswerResponse = z.infer<typeof SaveAnswerResponseSchema>;

export const AttemptParamsSchema = z.object({ attemptId: z.string().min(1).max(64) });
export const AnswerParamsSchema = AttemptParamsSchema.extend({
  questionIndex: z.coerce.number().int().min(0).max(499),
});

export const AttemptStateSchema = z.object({
  attemptId: z.string(),
  examId: z.string(),
  name: z.string(),
  studentId: z.string(),
  startedAt: z.string(),
  deadline: z.string().nullable(),
  submittedAt: z.string().nullable(),
  resultId: z.string().nullable(),
  serverNow: z.string(),
  /** `operations`: how many of the question's edit operations the server holds (a page resumes counting there). */
  answers: z.record(
    z.string(),
    z.object({ answer: z.string(), seq: z.number().int(), operations: z.number().int().optional() }),
  ),
  /** The largest answer file the server takes, so the page can refuse a bigger one at once, even offline. */
  uploadMaxBytes: z.number().int().positive(),
  /** Where the candidate is among the exam's sections (sections.ts); absent for an exam without sections. */
  section: SectionStateSchema.optional(),
});
export type AttemptState = z.infer<typeof AttemptStateSchema>;

export const PROCTOR_EVENT_TYPES = [
  'focus-lost',
  'focus-gained',
  'fullscreen-exit',
  'fullscreen-enter',
  'paste-blocked',
  'paste-allowed',
  'copy',
  /**
   * The question on screen changed (questionIndex: the candidate's index of the one now shown): insights'
   * time per question. Not a proctoring incident: no warning, not listed among a result's integrity events.
   */
  'question-view',
] as const;
/** Events that record what the candidate looked at, not an integrity incident. */
export const NAVIGATION_EVENT_TYPES: readonly ProctorEventType[] = ['question-view'];
export type ProctorEventType = (typeof PROCTOR_EVENT_TYPES)[number];
export const ProctorEventSchema = z.object({
  type: z.enum(PROCTOR_EVENT_TYPES),
  /** Client clock, kept for ordering; the server stamps its own time too. */
  clientAt: z.string().max(40).optional(),
  questionIndex: z.number().int().min(0).max(499).optional(),
  detail: z.string().max(2000).optional(),
});
export type ProctorEvent = z.infer<typeof ProctorEventSchema>;
/** Events one request may carry; taker-web sends its outbox in batches of this size. */
export const EVENTS_PER_REQUEST_MAX = 200;
/** Events stored per attempt unless EVENTS_PER_ATTEMPT_MAX says otherwise; later ones are dropped, not stored. */
export const DEFAULT_EVENTS_PER_ATTEMPT_MAX = 2000;
/** The newest events a result's detail lists; its per-type summary still counts every stored event. */
export const RESULT_EVENTS_MAX = 200;
export const RecordEventsSchema = z.object({ events: z.array(ProctorEventSchema).min(1).max(EVENTS_PER_REQUEST_MAX) });
export const RecordEventsResponseSchema = z.object({
  /** Events stored by this request. */
  recorded: z.number().int(),
  /** Events not stored because the attempt already holds as many as the server keeps. */
  dropped: z.number().int(),
});

export const SubmitResponseSchema = z.object({
  resultId: z.string(),
  answered: z.number().int(),
  total: z.number().int(),
  /** Follow-up questions come next (follow-up.ts): the page opens them (POST /api/attempts/:id/follow-up/start). */
  followUp: z.boolean().default(false),
});
export type SubmitResponse = z.infer<typeof SubmitResponseSchema>;

export const UploadResponseSchema = z.object({
  questionIndex: z.number().int(),
  fileName: z.string(),
  size: z.number().int(),
  answer: z.string(),
});
