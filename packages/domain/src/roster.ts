import { z } from 'zod';
import { CandidateIdSchema, CandidateNameSchema } from './candidate-id.ts';
import { RosterMessages } from './candidate-messages.ts';
export { RosterMessages } from './candidate-messages.ts';

/**
 * An exam's roster and its invitations (docs/product.md#rosters-and-invitations). The candidate ID is
 * compared normalised (candidateKey in attempt-binding.ts), as an attempt names its candidate.
 */

/** The request field a wrong or missing access code is reported on. */
export const ACCESS_CODE_FIELD = 'accessCode';

const email = z
  .string()
  .trim()
  .max(254)
  .refine((v) => v === '' || z.email().safeParse(v).success, RosterMessages.badEmail)
  .transform((v) => (v === '' ? null : v.toLowerCase()));

/** One candidate as typed or imported; an empty e-mail means none (no invitation can be sent). */
export const RosterEntryInputSchema = z.object({
  name: CandidateNameSchema,
  candidateId: CandidateIdSchema,
  email: email.prefault(''),
});
export type RosterEntryInput = z.input<typeof RosterEntryInputSchema>;
/** The entry as validated: e-mail lower-cased, or null when none. */
export type RosterEntryValues = z.output<typeof RosterEntryInputSchema>;

export const RosterEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  candidateId: z.string(),
  email: z.string().nullable(),
  /** When the last invitation was queued; null when never invited. */
  invitedAt: z.string().nullable(),
});
export type RosterEntry = z.infer<typeof RosterEntrySchema>;

/**
 * How a roster exam admits a candidate (docs/product.md#rosters-and-invitations):
 * `candidate-id`: anyone who types a roster candidate ID; `invitation-link`: only a candidate who opens their
 * personal invitation link (its token is checked against that candidate's entry, server-side).
 */
export const RosterAdmissionSchema = z.enum(['candidate-id', 'invitation-link']);
export type RosterAdmission = z.infer<typeof RosterAdmissionSchema>;

export const RosterAdmissionUpdateSchema = z.object({ rosterAdmission: RosterAdmissionSchema });
export type RosterAdmissionUpdate = z.infer<typeof RosterAdmissionUpdateSchema>;

export const RosterResponseSchema = z.object({
  entries: z.array(RosterEntrySchema),
  /** The exam's admission mode now in force (see RosterAdmissionSchema). */
  rosterAdmission: RosterAdmissionSchema,
});
export type RosterResponse = z.infer<typeof RosterResponseSchema>;

/** CSV text (a file's content or pasted), header line first; at most 1 MB. */
export const RosterImportSchema = z.object({ csv: z.string().max(1_000_000) });
export type RosterImport = z.infer<typeof RosterImportSchema>;

export const RosterImportResponseSchema = RosterResponseSchema.extend({
  /** Rows added or updated (a candidate ID already on the roster gets the row's name and e-mail). */
  imported: z.number().int(),
});
export type RosterImportResponse = z.infer<typeof RosterImportResponseSchema>;

/** The longest personal message a creator may add to an invitation (plain text, never read as HTML). */
export const INVITATION_MESSAGE_MAX = 2000;

const invitationMessage = z
  .string()
  .max(INVITATION_MESSAGE_MAX, `The message can have at most ${INVITATION_MESSAGE_MAX} characters`)
  .transform((v) => v.trim())
  .optional();

/**
 * Without entryIds, every roster entry with an e-mail is invited. `message`: the creator's own words, shown in
 * the mail as plain text (docs/product.md#rosters-and-invitations).
 */
export const InviteRequestSchema = z.object({
  entryIds: z.array(z.string().min(1).max(64)).max(5000).optional(),
  message: invitationMessage,
});
export type InviteRequest = z.infer<typeof InviteRequestSchema>;

/** POST …/invitations/preview: the mail the same request to …/invitations would send, nothing queued. */
export const InvitationPreviewSchema = z.object({
  /** The candidate the preview is rendered for: the first recipient, or null for a sample candidate. */
  candidate: z.object({ name: z.string(), candidateId: z.string() }).nullable(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** How many mails the request would queue. */
  recipients: z.number().int(),
  /** Of them, how many were invited before (their earlier link stops working). */
  alreadyInvited: z.number().int(),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

/** GET /api/exams/invitation-counts: invitations sent (roster entries invited) per exam of the creator's. */
export const InvitationCountsSchema = z.object({
  exams: z.array(z.object({ examId: z.string(), invited: z.number().int() })),
});
export type InvitationCounts = z.infer<typeof InvitationCountsSchema>;

export const InviteResponseSchema = RosterResponseSchema.extend({ invited: z.number().int() });
export type InviteResponse = z.infer<typeof InviteResponseSchema>;

/** What an invitation link fills in on the start page (and locks). */
export const InvitationIdentitySchema = z.object({ name: z.string(), studentId: z.string() });
export type InvitationIdentity = z.infer<typeof InvitationIdentitySchema>;

/** results-service asks exam-service whether a candidate may start a new attempt. */
export const AdmitRequestSchema = z.object({
  studentId: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  accessCode: z.string().max(200).optional(),
  inviteToken: z.string().max(200).optional(),
});
export type AdmitRequest = z.infer<typeof AdmitRequestSchema>;

/** Admitted: the name the attempt is recorded under (the roster's, for a roster candidate). */
export const AdmitResponseSchema = z.object({ name: z.string() });
export type AdmitResponse = z.infer<typeof AdmitResponseSchema>;

/** results-service tells exam-service whose results were released, so their roster entries get a notice. */
export const ReleaseNoticeRequestSchema = z.object({ candidateKeys: z.array(z.string().max(100)).max(100_000) });
export const ReleaseNoticeResponseSchema = z.object({ queued: z.number().int() });

/**
 * GET /internal/exams/{id}/roster-emails: the e-mail of each roster candidate who has one, by normalised candidate
 * ID (@exam/domain/candidate-key), for results-service's gradebook export.
 */
export const RosterEmailsSchema = z.object({
  emails: z.array(z.object({ candidateKey: z.string(), email: z.string() })),
});
export type RosterEmails = z.infer<typeof RosterEmailsSchema>;

/** Which candidates of an exam have submitted (results-service), for the reminders before close. */
export const SubmittedCandidatesSchema = z.object({ candidateKeys: z.array(z.string()) });
export type SubmittedCandidates = z.infer<typeof SubmittedCandidatesSchema>;
