import { z } from 'zod';

/**
 * Follow-up questions after submit (issue 34, item 3; docs/product.md "Follow-up questions"). Optional per exam
 * (aiSettings.followUp): once the candidate has submitted, the exam's assistant asks up to `questions` short
 * questions generated from that candidate's own answers and code, never from keys or hidden tests. Each is answered
 * in the exam room within `secondsPerQuestion` (scaled by the candidate's time factor), one after the other; a
 * draft is saved as it is typed and is the answer when the time runs out. The answers belong to the attempt: a
 * grader reads each beside the answer it probes and marks it on the exam's follow-up rubric. Follow-up marks are
 * their own figure ("Follow-up: 3 of 4"), shown beside the exam's score and never added to it: the exam's score
 * stays what its questions gave, so results, insights and the LMS grade do not move when a follow-up is marked.
 *
 * Submission never waits for them: the submit answers at once, the questions are generated when the candidate's
 * page asks for them, and a provider that cannot be reached (or an assistant without a key, a spent budget) skips
 * the follow-up with a note.
 */

export const FOLLOW_UP_MAX_QUESTIONS = 5;
export const FOLLOW_UP_DEFAULT_QUESTIONS = 2;
export const FOLLOW_UP_DEFAULT_SECONDS = 180;
export const FOLLOW_UP_MIN_SECONDS = 30;
export const FOLLOW_UP_MAX_SECONDS = 1800;
export const FOLLOW_UP_ANSWER_MAX = 5000;
/** A generated question longer than this is cut (a follow-up is short). */
export const FOLLOW_UP_QUESTION_MAX = 600;

export const FollowUpRubricLevelSchema = z.object({
  label: z.string().trim().min(1, 'Name the level').max(200),
  points: z.number().min(0).max(100),
});
export type FollowUpRubricLevel = z.infer<typeof FollowUpRubricLevelSchema>;

export const DEFAULT_FOLLOW_UP_RUBRIC: FollowUpRubricLevel[] = [
  { label: 'Explains their answer correctly and fully', points: 2 },
  { label: 'Explains part of it, or with errors', points: 1 },
  { label: 'Cannot explain it', points: 0 },
];

export const FollowUpSettingsSchema = z.object({
  enabled: z.boolean().default(false),
  questions: z
    .number({ error: 'Enter a whole number of questions' })
    .int('Enter a whole number of questions')
    .min(1, 'At least 1 question')
    .max(FOLLOW_UP_MAX_QUESTIONS, `At most ${FOLLOW_UP_MAX_QUESTIONS} questions`)
    .default(FOLLOW_UP_DEFAULT_QUESTIONS),
  secondsPerQuestion: z
    .number({ error: 'Enter a whole number of seconds' })
    .int('Enter a whole number of seconds')
    .min(FOLLOW_UP_MIN_SECONDS, `At least ${FOLLOW_UP_MIN_SECONDS} seconds`)
    .max(FOLLOW_UP_MAX_SECONDS, `At most ${FOLLOW_UP_MAX_SECONDS} seconds`)
    .default(FOLLOW_UP_DEFAULT_SECONDS),
  /** Levels a grader chooses from, best first; each follow-up gets one level's points. */
  rubric: z
    .array(FollowUpRubricLevelSchema)
    .min(2, 'A rubric needs at least 2 levels')
    .max(6, 'A rubric has at most 6 levels')
    .default(() => DEFAULT_FOLLOW_UP_RUBRIC.map((l) => ({ ...l }))),
});
export type FollowUpSettings = z.infer<typeof FollowUpSettingsSchema>;
export const DEFAULT_FOLLOW_UP: FollowUpSettings = FollowUpSettingsSchema.parse({});

/** What the candidate's page learns before the exam (the briefing says so): null when the exam has none. */
export const PublicFollowUpSchema = z.object({
  questions: z.number().int(),
  secondsPerQuestion: z.number().int(),
});
export type PublicFollowUp = z.infer<typeof PublicFollowUpSchema>;

export const FOLLOW_UP_STATUSES = [
  /** The exam has no follow-up. */
  'off',
  /** Submitted; the questions are not generated yet (the page asks for them: POST …/follow-up/start). */
  'pending',
  /** Questions are being asked: `current` is the one on screen. */
  'asking',
  /** Every question was answered (or its time ran out). */
  'done',
  /** Skipped, with `note` saying why (the provider could not be reached, no key, budget spent, nothing to ask). */
  'skipped',
] as const;
export const FollowUpStatusSchema = z.enum(FOLLOW_UP_STATUSES);
export type FollowUpStatus = z.infer<typeof FollowUpStatusSchema>;

/** The question on the candidate's screen. `questionNumber` is the probed question in the candidate's own numbering. */
export const FollowUpCurrentSchema = z.object({
  n: z.number().int().min(1),
  text: z.string(),
  probes: z.object({ questionNumber: z.number().int().min(1), title: z.string() }),
  askedAt: z.string(),
  deadline: z.string(),
  /** The saved draft, and the sequence number the page continues from. */
  answer: z.string(),
  seq: z.number().int(),
});
export type FollowUpCurrent = z.infer<typeof FollowUpCurrentSchema>;

/** GET /api/attempts/:attemptId/follow-up (and what start, submit and a timed-out save answer). */
export const FollowUpStateSchema = z.object({
  status: FollowUpStatusSchema,
  note: z.string().nullable(),
  total: z.number().int(),
  answered: z.number().int(),
  current: FollowUpCurrentSchema.nullable(),
  secondsPerQuestion: z.number().int(),
  serverNow: z.string(),
});
export type FollowUpState = z.infer<typeof FollowUpStateSchema>;

export const FollowUpParamsSchema = z.object({
  attemptId: z.string().min(1).max(64),
  n: z.coerce.number().int().min(1).max(FOLLOW_UP_MAX_QUESTIONS),
});

/** PUT /api/attempts/:attemptId/follow-up/:n/answer: the draft as typed; stale `seq` values are ignored. */
export const SaveFollowUpAnswerSchema = z.object({
  answer: z.string().max(FOLLOW_UP_ANSWER_MAX, `At most ${FOLLOW_UP_ANSWER_MAX} characters`),
  seq: z.number().int().min(0),
});
export const SavedFollowUpAnswerSchema = z.object({ seq: z.number().int() });

/** POST /api/attempts/:attemptId/follow-up/:n/submit: the final answer; the next question starts now. */
export const SubmitFollowUpAnswerSchema = z.object({
  answer: z.string().max(FOLLOW_UP_ANSWER_MAX, `At most ${FOLLOW_UP_ANSWER_MAX} characters`),
});

export const FollowUpMessages = {
  intro: 'Your exam is submitted. A few short questions about your own answers follow.',
  skippedProvider: 'The follow-up questions were skipped: the assistant could not be reached. Your exam is submitted.',
  skippedNoAssistant: 'The follow-up questions were skipped: the assistant is not set up for this exam.',
  skippedBudget: "The follow-up questions were skipped: the exam's AI budget is spent.",
  skippedNothing: 'The follow-up questions were skipped: there was no answer to ask about.',
  timeUp: 'Time is up for this question. What you wrote was saved as your answer.',
  closed: 'This follow-up question is closed. Changes are no longer accepted.',
  done: 'Thank you. Your answers to the follow-up questions are saved.',
} as const;

// ---- For graders ----

export const FollowUpMarkSchema = z.object({
  level: z.number().int().min(0),
  points: z.number(),
  feedback: z.string(),
  markedAt: z.string(),
  markedBy: z.string(),
});

export const FollowUpForGraderSchema = z.object({
  status: FollowUpStatusSchema,
  note: z.string().nullable(),
  rubric: z.array(FollowUpRubricLevelSchema),
  questions: z.array(
    z.object({
      n: z.number().int(),
      /** The probed question in the exam's own order (0-based), as every grader page numbers questions. */
      questionIndex: z.number().int(),
      text: z.string(),
      answer: z.string(),
      askedAt: z.string().nullable(),
      answeredAt: z.string().nullable(),
      /** The time ran out: `answer` is the draft saved by then. */
      timedOut: z.boolean(),
      mark: FollowUpMarkSchema.nullable(),
    }),
  ),
  /** Points awarded over the marked questions, and the most the asked questions can give. */
  points: z.object({ awarded: z.number(), max: z.number(), marked: z.number().int() }),
});
export type FollowUpForGrader = z.infer<typeof FollowUpForGraderSchema>;

export const FollowUpResultParamsSchema = z.object({
  id: z.string().min(1).max(64),
  n: z.coerce.number().int().min(1).max(FOLLOW_UP_MAX_QUESTIONS),
});

/** PUT /api/results/:id/follow-up/:n/mark: a rubric level (its index), or null to clear the mark. */
export const MarkFollowUpSchema = z.object({
  level: z.number().int().min(0).max(5).nullable(),
  feedback: z.string().max(2000).default(''),
});

// ---- results-service → llm-gateway ----

/**
 * POST /internal/attempts/:attemptId/follow-up-questions. results-service sends the candidate's own answers (text
 * and code, cut to a few thousand characters each) with the questions' statements, never keys or hidden tests;
 * the gateway reads the exam for its provider, model and key and for the keys the generated questions must not
 * contain. 409 when the exam has no usable assistant, 429 when the budget is spent, 502/503 when the provider fails.
 */
export const GenerateFollowUpsRequestSchema = z.object({
  /** The attempt's exam: the gateway reads its provider, model, key, budget and keys by it. */
  examId: z.string().min(1).max(64),
  count: z.number().int().min(1).max(FOLLOW_UP_MAX_QUESTIONS),
  answers: z
    .array(
      z.object({
        questionIndex: z.number().int().min(0),
        title: z.string(),
        text: z.string(),
        type: z.string(),
        answer: z.string(),
        language: z.string().optional(),
      }),
    )
    .max(500),
});
export type GenerateFollowUpsRequest = z.infer<typeof GenerateFollowUpsRequestSchema>;

export const GenerateFollowUpsResponseSchema = z.object({
  questions: z.array(
    z.object({ questionIndex: z.number().int().min(0), text: z.string().max(FOLLOW_UP_QUESTION_MAX) }),
  ),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
});
export type GenerateFollowUpsResponse = z.infer<typeof GenerateFollowUpsResponseSchema>;
