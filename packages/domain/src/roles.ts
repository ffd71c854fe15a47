import { z } from 'zod';

/**
 * Who may do what to an exam (issue 38). An exam has one owner (exams.owner_id) and is shared with other creators in
 * roles; every service asks `roleOn` / `can` here, so the matrix below is the only place a permission is decided.
 *
 * - owner: everything, including sharing, deletion, the audit log and candidates' data requests.
 * - editor: authors and publishes; reads and grades results; runs the live view; reads insights.
 * - grader: reads what grading needs (answers, transcripts, timelines, files) and marks; releases only when the
 *   owner allowed it on the share (`mayRelease`).
 * - proctor: the live view, announcements, extra time, unlocks; never answers or marks.
 * - viewer: insights only.
 */
export const EXAM_ROLES = ['owner', 'editor', 'grader', 'proctor', 'viewer'] as const;
export const ExamRoleSchema = z.enum(EXAM_ROLES);
export type ExamRole = z.infer<typeof ExamRoleSchema>;

/** The roles an owner can give (there is one owner; ownership is not shared). */
export const SHARED_ROLES = ['editor', 'grader', 'proctor', 'viewer'] as const;
export const SharedRoleSchema = z.enum(SHARED_ROLES);
export type SharedRole = z.infer<typeof SharedRoleSchema>;

export const EXAM_CAPABILITIES = [
  /** See that the exam exists: its title, timer, window and status. Every role. */
  'exam:view',
  /** Read its questions with their keys and rubrics (graders need them to mark; proctors do not). */
  'exam:read-content',
  /** Edit, publish, switch live, materials, roster and invitations, preview, import/export, LTI links, retention. */
  'exam:edit',
  'exam:delete',
  /** Add, change and remove members. */
  'exam:share',
  /** Candidates' answers, results, transcripts, timelines and files. */
  'results:read',
  /** Marks, feedback, rubric criteria, regrades, AI-suggested marks. */
  'results:grade',
  /** Release and withdraw results (a grader only with mayRelease). */
  'results:release',
  /** Delete results and attempts. */
  'results:delete',
  'live:view',
  /** Announcements, extra time, unlocks, accommodations. */
  'live:control',
  'insights:read',
  'audit:read',
  /** Export and erase one candidate's data on request; set the retention period. */
  'candidates:data',
] as const;
export const ExamCapabilitySchema = z.enum(EXAM_CAPABILITIES);
export type ExamCapability = z.infer<typeof ExamCapabilitySchema>;

const ROLE_CAPABILITIES: Record<ExamRole, ReadonlySet<ExamCapability>> = {
  owner: new Set(EXAM_CAPABILITIES),
  editor: new Set<ExamCapability>([
    'exam:view',
    'exam:read-content',
    'exam:edit',
    'results:read',
    'results:grade',
    'results:release',
    'results:delete',
    'live:view',
    'live:control',
    'insights:read',
  ]),
  grader: new Set<ExamCapability>(['exam:view', 'exam:read-content', 'results:read', 'results:grade']),
  proctor: new Set<ExamCapability>(['exam:view', 'live:view', 'live:control']),
  viewer: new Set<ExamCapability>(['exam:view', 'exam:read-content', 'insights:read']),
};

/** One creator's place on an exam, as exam-service stores it (exam_members) and serves it to the other services. */
export const ExamMemberSchema = z.object({
  creatorId: z.string(),
  email: z.string(),
  role: SharedRoleSchema,
  /** A grader may release results only when the owner allowed it; ignored for other roles. */
  mayRelease: z.boolean().default(false),
});
export type ExamMember = z.infer<typeof ExamMemberSchema>;

/** What a permission check needs of an exam: its owner and members (InternalExam and exam-service rows have both). */
export interface ExamAccess {
  ownerId: string;
  members?: readonly Pick<ExamMember, 'creatorId' | 'role' | 'mayRelease'>[] | undefined;
}

export interface ExamGrant {
  role: ExamRole;
  mayRelease: boolean;
}

/** The creator's role on the exam, or null when the exam is not theirs in any role (serve it as not found). */
export function roleOn(exam: ExamAccess, creatorId: string): ExamGrant | null {
  if (exam.ownerId === creatorId) return { role: 'owner', mayRelease: true };
  const member = exam.members?.find((m) => m.creatorId === creatorId);
  return member ? { role: member.role, mayRelease: member.role === 'grader' && member.mayRelease } : null;
}

export function grantCan(grant: ExamGrant | null, capability: ExamCapability): boolean {
  if (!grant) return false;
  if (capability === 'results:release' && grant.role === 'grader') return grant.mayRelease;
  return ROLE_CAPABILITIES[grant.role].has(capability);
}

/** Whether the creator may do this to the exam. */
export function can(exam: ExamAccess, creatorId: string, capability: ExamCapability): boolean {
  return grantCan(roleOn(exam, creatorId), capability);
}

/** Every capability a grant holds, for a client that shows or hides controls (the server still checks each call). */
export function capabilitiesOf(grant: ExamGrant | null): ExamCapability[] {
  return EXAM_CAPABILITIES.filter((c) => grantCan(grant, c));
}

/**
 * The outcome of a check, for services to turn into a response: 'not-found' when the creator has no role (another
 * creator's exam looks exactly like one that does not exist, so ids cannot be probed), 'forbidden' when they have a
 * role without this capability (403 naming what is missing), 'ok' otherwise.
 */
export function checkAccess(
  exam: ExamAccess | null | undefined,
  creatorId: string,
  capability: ExamCapability,
): 'ok' | 'not-found' | 'forbidden' {
  if (!exam) return 'not-found';
  const grant = roleOn(exam, creatorId);
  if (!grant) return 'not-found';
  return grantCan(grant, capability) ? 'ok' : 'forbidden';
}

/** The words a 403 says, per capability: what the member's role does not allow. */
export const CAPABILITY_REFUSALS: Record<ExamCapability, string> = {
  'exam:view': 'Your role on this exam does not let you see it.',
  'exam:read-content': 'Your role on this exam does not let you read its questions.',
  'exam:edit': 'Your role on this exam does not let you edit it.',
  'exam:delete': 'Only the owner can delete this exam.',
  'exam:share': 'Only the owner can share this exam.',
  'results:read': "Your role on this exam does not let you read candidates' answers.",
  'results:grade': 'Your role on this exam does not let you grade.',
  'results:release': 'Your role on this exam does not let you release results.',
  'results:delete': 'Your role on this exam does not let you delete results.',
  'live:view': 'Your role on this exam does not include the live view.',
  'live:control': 'Your role on this exam does not let you act on candidates in the live view.',
  'insights:read': 'Your role on this exam does not include its insights.',
  'audit:read': "Only the owner can read this exam's audit log.",
  'candidates:data': "Only the owner can export or erase candidates' data.",
};

/**
 * The audit log of an exam (issue 38): who did what to the exam and its results. exam-service records authoring,
 * sharing and data requests; results-service records grades, releases, unlocks, regrades and deletions; exam-service
 * serves both, merged by time, to the owner at GET /api/exams/:id/audit.
 */
export const AUDIT_ACTIONS = [
  // exam-service
  'exam.created',
  'exam.edited',
  'exam.published',
  'exam.live-changed',
  'exam.deleted',
  'member.added',
  'member.role-changed',
  'member.removed',
  'retention.changed',
  'candidate.exported',
  'candidate.erased',
  'retention.purged',
  // results-service
  'result.graded',
  'result.released',
  'result.unreleased',
  'result.regraded',
  /** A mark or feedback of an oral follow-up question (detail: followUpQuestion, from, to points). */
  'result.follow-up-graded',
  'result.deleted',
  'attempt.unlocked',
  'attempt.time-extended',
  'attempt.accommodation-changed',
  'announcement.sent',
] as const;
export const AuditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditActionSchema>;

export const AuditEventSchema = z.object({
  id: z.string(),
  examId: z.string(),
  /** The creator who acted; null for the platform's own jobs (the retention purge). */
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: AuditActionSchema,
  /** What was acted on: a result, attempt, candidate ID or member's e-mail; null for the exam itself. */
  subject: z.string().nullable(),
  /** Small facts of the change (old and new role, points, minutes); never a candidate's answer. */
  detail: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;
