import { z } from 'zod';
import { RosterImportResponseSchema } from './roster.ts';

/**
 * LTI Advantage services (1EdTech LTI Assignment and Grade Services 2.0, Names and Role Provisioning
 * Services 2.0): what results-service keeps about an attempt that came from an LMS launch, the score
 * passback outbox's state, and the internal contract through which exam-service (which holds the tool's
 * keys and the platform registrations) talks to the LMS.
 */

/**
 * The LMS link of an attempt, written by the launch: which registered platform and deployment, which
 * resource link, the AGS line item to post the score to (the `lineitem` of the launch's AGS endpoint claim;
 * null when the platform offers no line item) and the user's `sub` (LTI Core 1.3 §5.3.6), which AGS calls
 * `userId`.
 */
export const AttemptLtiLinkSchema = z.object({
  platformId: z.string().min(1).max(64),
  deploymentId: z.string().min(1).max(255),
  resourceLinkId: z.string().min(1).max(255),
  lineItemUrl: z.string().url().max(2000).nullable(),
  sub: z.string().min(1).max(255),
});
export type AttemptLtiLink = z.infer<typeof AttemptLtiLinkSchema>;

/** pending: waiting to be sent (or to be retried); sent: the LMS accepted the score; failed: gave up. */
export const LMS_SYNC_STATES = ['pending', 'sent', 'failed'] as const;
export type LmsSyncState = (typeof LMS_SYNC_STATES)[number];

/** A result's score passback as the creator sees it (present only for attempts launched from an LMS). */
export const LmsSyncSchema = z.object({
  state: z.enum(LMS_SYNC_STATES),
  tries: z.number().int(),
  lastError: z.string().nullable(),
  syncedAt: z.string().nullable(),
});
export type LmsSync = z.infer<typeof LmsSyncSchema>;

/**
 * POST {EXAM_SERVICE_URL}/internal/lti/scores: publish one score to the platform's line item (AGS 2.0
 * Score publish service). `userId` is the launch's `sub`.
 */
export const LtiScoreRequestSchema = z.object({
  platformId: z.string().min(1).max(64),
  lineItemUrl: z.string().url().max(2000),
  userId: z.string().min(1).max(255),
  /** Absent when the score is withdrawn (gradingProgress 'Pending'). */
  scoreGiven: z.number().min(0).optional(),
  scoreMaximum: z.number().positive(),
  /** AGS 2.0 §3.4.4–3.4.5; a withdrawn release sends 'Pending' with no score. */
  activityProgress: z.enum(['Initialized', 'Started', 'InProgress', 'Submitted', 'Completed']),
  gradingProgress: z.enum(['FullyGraded', 'Pending', 'PendingManual', 'Failed', 'NotReady']),
  timestamp: z.string().datetime({ offset: true }),
  comment: z.string().max(1000).optional(),
});
export type LtiScoreRequest = z.infer<typeof LtiScoreRequestSchema>;

/** A learner of the LMS course as the roster import previews it (NRPS 2.0 membership, Learner role). */
export const LmsMemberSchema = z.object({
  /** The LMS user id (NRPS `user_id`, the launch's `sub`): the roster's candidate ID. */
  candidateId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  /** Already on the exam's roster (by candidate ID): importing updates its name and e-mail. */
  onRoster: z.boolean(),
});
export type LmsMember = z.infer<typeof LmsMemberSchema>;

/** GET /api/exams/{id}/roster/lms: whether the exam is placed in an LMS course whose roster the tool may read. */
export const LmsRosterSourceSchema = z.object({
  linked: z.boolean(),
  courses: z.array(
    z.object({ platformName: z.string(), contextId: z.string().nullable(), title: z.string().nullable() }),
  ),
});
export type LmsRosterSource = z.infer<typeof LmsRosterSourceSchema>;

/** GET /api/exams/{id}/roster/lms/preview: the course's active learners, before anything is written. */
export const LmsRosterPreviewSchema = z.object({
  members: z.array(LmsMemberSchema),
  /** Members the LMS listed that are not imported: instructors and other roles, inactive learners, unusable ids. */
  skipped: z.number().int(),
});
export type LmsRosterPreview = z.infer<typeof LmsRosterPreviewSchema>;

/**
 * The internal route's answer: the LMS took the score, or it did not and `retryable` says whether trying
 * again later may help (the network, a 5xx or 429, a token endpoint that is down) or not (the registration
 * is gone, the LMS refuses the tool's credentials, the line item or the score itself).
 */
export const LtiScoreOutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('sent') }),
  z.object({ outcome: z.literal('failed'), code: z.string(), message: z.string(), retryable: z.boolean() }),
]);
export type LtiScoreOutcome = z.infer<typeof LtiScoreOutcomeSchema>;

/** POST /api/exams/{id}/roster/lms/import: the roster after the import, and what it did. */
export const LmsRosterImportResponseSchema = RosterImportResponseSchema.extend({
  skipped: z.number().int(),
});
export type LmsRosterImportResponse = z.infer<typeof LmsRosterImportResponseSchema>;
