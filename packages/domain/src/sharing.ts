import { z } from 'zod';
import { AuditEventSchema, SHARED_ROLES, SharedRoleSchema } from './roles.ts';

/**
 * Sharing an exam with other creators (roles.ts): the owner adds people by e-mail in a role, changes their role and
 * removes them; an e-mail with no account yet waits as an invite until that account is made.
 */
const roleField = z.enum(SHARED_ROLES, { error: 'Choose editor, grader, proctor or viewer' });

export const AddExamMemberSchema = z.object({
  /** Trimmed and lower-cased before it is checked, as accounts' e-mails are stored. */
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(
      z
        .email({ error: (issue) => (issue.input === '' ? 'Enter an e-mail address' : 'Enter a valid e-mail address') })
        .max(320),
    ),
  role: roleField,
  /** Only meaningful for a grader: whether they may release results. */
  mayRelease: z.boolean().optional(),
});
export type AddExamMember = z.input<typeof AddExamMemberSchema>;

export const UpdateExamMemberSchema = z
  .object({ role: roleField, mayRelease: z.boolean() })
  .partial()
  .refine((v) => v.role !== undefined || v.mayRelease !== undefined, { error: 'Send a role or mayRelease' });
export type UpdateExamMember = z.infer<typeof UpdateExamMemberSchema>;

export const ExamMemberParamsSchema = z.object({ id: z.string().min(1).max(64), creatorId: z.string().min(1).max(64) });
export const ExamInviteParamsSchema = z.object({ id: z.string().min(1).max(64), email: z.string().min(1).max(320) });

export const ExamMemberViewSchema = z.object({
  creatorId: z.string(),
  email: z.string(),
  role: SharedRoleSchema,
  mayRelease: z.boolean(),
  addedAt: z.string(),
});
export type ExamMemberView = z.infer<typeof ExamMemberViewSchema>;

export const ExamInviteViewSchema = z.object({
  email: z.string(),
  role: SharedRoleSchema,
  mayRelease: z.boolean(),
  invitedAt: z.string(),
});
export type ExamInviteView = z.infer<typeof ExamInviteViewSchema>;

export const ExamMembersResponseSchema = z.object({
  owner: z.object({ creatorId: z.string(), email: z.string() }),
  members: z.array(ExamMemberViewSchema),
  /** E-mails with no account yet; each becomes a member when that account is made. */
  invites: z.array(ExamInviteViewSchema),
});
export type ExamMembersResponse = z.infer<typeof ExamMembersResponseSchema>;

/** What adding answered: a member (the e-mail has an account) or a pending invite (it has none yet). */
export const AddExamMemberResponseSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('member'), member: ExamMemberViewSchema }),
  z.object({ kind: z.literal('invite'), invite: ExamInviteViewSchema }),
]);
export type AddExamMemberResponse = z.infer<typeof AddExamMemberResponseSchema>;

export const MAX_AUDIT_PAGE = 200;

export const AuditLogQuerySchema = z.object({
  /** Events strictly older than this instant (the previous page's `nextBefore`). */
  before: z.iso.datetime({ offset: true }).optional(),
  /**
   * With `before`, also the events at exactly that instant recorded before this one (the previous page's
   * `nextBeforeId`): several events share a millisecond, and a page may end among them.
   */
  beforeId: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(50),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuerySchema>;

/** Where an exam's audit events are kept: exam-service (authoring, sharing) and results-service (grades, live). */
export const AUDIT_SOURCES = ['exam-service', 'results-service'] as const;

export const AuditLogResponseSchema = z.object({
  /** Newest first, both services' events merged by time. */
  events: z.array(AuditEventSchema),
  /** Pass as `before` for the next (older) page; null when there is none. */
  nextBefore: z.string().nullable(),
  /** Pass as `beforeId` with `nextBefore`: the last event's id, so events sharing its instant are neither lost nor repeated. */
  nextBeforeId: z.string().nullable(),
  /** Services whose half could not be read just now: the page lacks their events. */
  incomplete: z.array(z.enum(AUDIT_SOURCES)),
});
export type AuditLogResponse = z.infer<typeof AuditLogResponseSchema>;
