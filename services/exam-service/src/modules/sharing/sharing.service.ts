import { AppError, ErrorCode } from '@exam/domain/errors';
import type { SharedRole } from '@exam/domain/roles';
import type { AddExamMemberResponse, ExamMembersResponse, UpdateExamMember } from '@exam/domain/sharing';
import type { MailQueue } from '../../adapters/mail/mail-queue.service.ts';
import type { Deps } from '../../deps.ts';
import type { AuditLog } from '../exams/audit-log.repository.ts';
import type { ExamAccessCheck } from '../exams/exam-access.ts';
import { examSharedMail } from './share-mails.ts';
import type { SharingRepository } from './sharing.repository.ts';

export const SharingMessages = {
  yourself: 'You own this exam: share it with someone else',
  alreadyMember: 'This exam is already shared with that person: change their role instead',
  alreadyInvited: 'This e-mail is already invited: remove the invite to change its role',
  memberNotFound: 'Member not found',
  inviteNotFound: 'Invite not found',
} as const;

const invalid = (path: string, message: string) => new AppError(ErrorCode.VALIDATION, message, [{ path, message }]);
const conflict = (path: string, message: string) => new AppError(ErrorCode.CONFLICT, message, [{ path, message }]);

/** Only a grader's share carries "may release results" (roles.ts); for any other role it is stored false. */
const releaseFor = (role: SharedRole, mayRelease: boolean | undefined) => role === 'grader' && mayRelease === true;

/**
 * Sharing an exam (@exam/domain/roles): the owner alone ('exam:share') lists, adds, changes and removes members.
 * Adding an e-mail with an account makes a member at once; one without waits as an invite (the sign-up turns it into
 * a member). Both get a plain notice through the mail queue, and every change goes to the audit log.
 */
export function createSharingService(
  repo: SharingRepository,
  access: ExamAccessCheck,
  audit: AuditLog,
  deps: Pick<Deps, 'clock'> & { mail: Pick<MailQueue, 'enqueue'> },
  opts: { creatorOrigin: string },
) {
  const owned = (creatorId: string, examId: string) => access.require(creatorId, examId, 'exam:share');

  return {
    async list(creatorId: string, examId: string): Promise<ExamMembersResponse> {
      const { row } = await owned(creatorId, examId);
      const [ownerEmail, members, invites] = await Promise.all([
        repo.findUserEmail(row.ownerId),
        repo.listMembers(examId),
        repo.listInvites(examId),
      ]);
      return { owner: { creatorId: row.ownerId, email: ownerEmail ?? '' }, members, invites };
    },

    async add(
      creatorId: string,
      examId: string,
      input: { email: string; role: SharedRole; mayRelease?: boolean | undefined },
    ): Promise<AddExamMemberResponse> {
      const { row } = await owned(creatorId, examId);
      const ownerEmail = (await repo.findUserEmail(row.ownerId)) ?? '';
      if (input.email === ownerEmail.toLowerCase()) throw invalid('email', SharingMessages.yourself);
      const mayRelease = releaseFor(input.role, input.mayRelease);
      const now = deps.clock.now();
      const user = await repo.findUserByEmail(input.email);
      const notice = examSharedMail({
        to: input.email,
        examTitle: row.title,
        ownerEmail,
        role: input.role,
        hasAccount: user !== undefined,
        creatorOrigin: opts.creatorOrigin,
      });
      let response: AddExamMemberResponse;
      if (user) {
        const added = { examId, userId: user.id, role: input.role, mayRelease, addedBy: creatorId };
        if (!(await repo.insertMember(added, now))) throw conflict('email', SharingMessages.alreadyMember);
        response = { kind: 'member', member: (await repo.findMember(examId, user.id))! };
      } else {
        const invite = await repo.insertInvite(
          { examId, email: input.email, role: input.role, mayRelease, invitedBy: creatorId },
          now,
        );
        if (!invite) throw conflict('email', SharingMessages.alreadyInvited);
        response = { kind: 'invite', invite };
      }
      await deps.mail.enqueue([notice]);
      await audit.record({
        examId,
        actorId: creatorId,
        action: 'member.added',
        subject: input.email,
        detail: { role: input.role, mayRelease, pending: user === undefined },
      });
      return response;
    },

    async update(creatorId: string, examId: string, memberId: string, input: UpdateExamMember) {
      await owned(creatorId, examId);
      const current = await repo.findMember(examId, memberId);
      if (!current) throw new AppError(ErrorCode.NOT_FOUND, SharingMessages.memberNotFound);
      const role = input.role ?? current.role;
      const mayRelease = releaseFor(role, input.mayRelease ?? current.mayRelease);
      if (!(await repo.updateMember(examId, memberId, { role, mayRelease })))
        throw new AppError(ErrorCode.NOT_FOUND, SharingMessages.memberNotFound);
      await audit.record({
        examId,
        actorId: creatorId,
        action: 'member.role-changed',
        subject: current.email,
        detail: { from: current.role, to: role, mayRelease },
      });
      return (await repo.findMember(examId, memberId))!;
    },

    async remove(creatorId: string, examId: string, memberId: string): Promise<void> {
      await owned(creatorId, examId);
      const current = await repo.findMember(examId, memberId);
      if (!current || !(await repo.deleteMember(examId, memberId)))
        throw new AppError(ErrorCode.NOT_FOUND, SharingMessages.memberNotFound);
      await audit.record({
        examId,
        actorId: creatorId,
        action: 'member.removed',
        subject: current.email,
        detail: { role: current.role, pending: false },
      });
    },

    async removeInvite(creatorId: string, examId: string, email: string): Promise<void> {
      await owned(creatorId, examId);
      const removed = await repo.deleteInvite(examId, email.trim().toLowerCase());
      if (!removed) throw new AppError(ErrorCode.NOT_FOUND, SharingMessages.inviteNotFound);
      await audit.record({
        examId,
        actorId: creatorId,
        action: 'member.removed',
        subject: removed.email,
        detail: { role: removed.role, pending: true },
      });
    },
  };
}
export type SharingService = ReturnType<typeof createSharingService>;
