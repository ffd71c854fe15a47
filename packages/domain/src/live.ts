import { z } from 'zod';
import { NAVIGATION_EVENT_TYPES, PROCTOR_EVENT_TYPES } from './attempt.ts';
export { EndedByExaminerMessage } from './candidate-messages.ts';

/**
 * The live proctor view (docs/product.md#the-live-proctor-view): who is sitting an exam now, the examiner's
 * announcements, and what a candidate's page polls to learn of them, of a changed deadline or of its end.
 */

/** Both pages poll at most this often; an announcement reaches every candidate within one interval. */
export { LIVE_POLL_MS } from './candidate-views.ts';
/** Attempts submitted this long ago still show in the live view, marked as such. */
export const LIVE_RECENT_SUBMITTED_MINUTES = 60;
export const ANNOUNCEMENT_MAX_LENGTH = 2000;
/** The newest announcements a response carries; an exam with more shows only these. */
export const ANNOUNCEMENTS_LISTED_MAX = 100;

/**
 * The proctoring events that count as warnings (returning to the page or to full screen does not, nor does
 * moving to another question).
 */
export const WARNING_EVENT_TYPES = PROCTOR_EVENT_TYPES.filter(
  (type) => type !== 'focus-gained' && type !== 'fullscreen-enter' && !NAVIGATION_EVENT_TYPES.includes(type),
);

export const LIVE_ATTEMPT_STATUSES = ['in-progress', 'submitted', 'ended', 'expired'] as const;
export type LiveAttemptStatus = (typeof LIVE_ATTEMPT_STATUSES)[number];

export const CreateAnnouncementSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Write the announcement')
    .max(ANNOUNCEMENT_MAX_LENGTH, `An announcement has at most ${ANNOUNCEMENT_MAX_LENGTH} characters`),
});
export type CreateAnnouncement = z.infer<typeof CreateAnnouncementSchema>;

export const AnnouncementSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** Server time it was sent (ISO 8601). */
  at: z.string(),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

export const LiveAttemptSchema = z.object({
  attemptId: z.string(),
  name: z.string(),
  studentId: z.string(),
  startedAt: z.string(),
  /** When the candidate's page last talked to the server (recorded at most every few seconds); null before. */
  lastSeenAt: z.string().nullable(),
  answered: z.number().int(),
  total: z.number().int(),
  /** Proctoring warnings stored for the attempt, by event type (only types that occurred). */
  warnings: z.record(z.string(), z.number().int()),
  deadline: z.string().nullable(),
  /** Seconds to the deadline at serverNow while in progress; null without a timer or once over. */
  secondsLeft: z.number().int().nullable(),
  status: z.enum(LIVE_ATTEMPT_STATUSES),
  submittedAt: z.string().nullable(),
  /** The examiner who ended the attempt (their e-mail); null otherwise. */
  endedBy: z.string().nullable(),
  /**
   * The running shares of where the text the candidate put into their answers came from: characters inserted so far
   * typed, pasted inside the exam and copied from the assistant, counted as each save stores its edit operations.
   * Text deleted later still counts: a guide to watch by; the result's figures come from replaying the answers. All 0
   * before any operation was stored.
   */
  shares: z.object({ typed: z.number().int(), pasted: z.number().int(), assistant: z.number().int() }).optional(),
});
export type LiveAttempt = z.infer<typeof LiveAttemptSchema>;

export const ExamLiveSchema = z.object({
  examId: z.string(),
  serverNow: z.string(),
  /** In progress, and submitted in the last LIVE_RECENT_SUBMITTED_MINUTES, oldest start first. */
  attempts: z.array(LiveAttemptSchema),
  /** Newest first, at most ANNOUNCEMENTS_LISTED_MAX. */
  announcements: z.array(AnnouncementSchema),
});
export type ExamLive = z.infer<typeof ExamLiveSchema>;

/** What the candidate's page polls with its attempt token. */
export const CandidateLiveSchema = z.object({
  serverNow: z.string(),
  /** The current deadline: an extension granted during the exam shows here. */
  deadline: z.string().nullable(),
  submittedAt: z.string().nullable(),
  /** Set when the examiner ended the attempt. */
  endedAt: z.string().nullable(),
  /** Announcements of the exam made since this attempt started (until its submission), oldest first. */
  announcements: z.array(AnnouncementSchema),
});
export type CandidateLive = z.infer<typeof CandidateLiveSchema>;

export const EndAttemptResponseSchema = z.object({
  resultId: z.string(),
  answered: z.number().int(),
  total: z.number().int(),
  endedAt: z.string(),
  endedBy: z.string(),
});
export type EndAttemptResponse = z.infer<typeof EndAttemptResponseSchema>;

/** For the creator's result detail: what was announced while the attempt was open, and who ended it. */
export const ResultLiveLogSchema = z.object({
  announcements: z.array(AnnouncementSchema),
  endedBy: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type ResultLiveLog = z.infer<typeof ResultLiveLogSchema>;
