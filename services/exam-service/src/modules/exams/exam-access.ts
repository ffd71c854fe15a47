import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  CAPABILITY_REFUSALS,
  checkAccess,
  roleOn,
  type ExamAccess,
  type ExamCapability,
  type ExamGrant,
} from '@exam/domain/roles';
import type { ExamRow, ExamsRepository, ExamWithMember } from './exams.repository.ts';

export const EXAM_NOT_FOUND = 'Exam not found';

export type GrantedExam = { row: ExamRow; grant: ExamGrant };

function accessOf(found: ExamWithMember, creatorId: string): ExamAccess {
  return { ownerId: found.row.ownerId, members: found.member ? [{ creatorId, ...found.member }] : [] };
}

/** The caller's grant on a row listed or found with their membership (exams.repository.ts). */
export function grantOn(found: ExamWithMember, creatorId: string): ExamGrant | null {
  return roleOn(accessOf(found, creatorId), creatorId);
}

/**
 * The one check of a creator's access to an exam in exam-service: every module that serves a creator an exam, or
 * anything hung on one (roster, invitations, preview, import/export, LTI links, sharing, the audit log), asks here
 * with the capability its route needs (@exam/domain/roles). A creator with no role on the exam gets 404, exactly
 * as for an exam that does not exist (ids cannot be probed); a member whose role lacks the capability gets 403
 * saying what the role does not allow.
 */
export function createExamAccess(repo: Pick<ExamsRepository, 'findWithMember'>) {
  async function lookup(creatorId: string, examId: string, capability: ExamCapability) {
    const found = await repo.findWithMember(examId, creatorId);
    const outcome = checkAccess(found && accessOf(found, creatorId), creatorId, capability);
    return { found, outcome };
  }

  return {
    /** The exam and the caller's grant; throws 404 (no role) or 403 (role without the capability). */
    async require(creatorId: string, examId: string, capability: ExamCapability): Promise<GrantedExam> {
      const { found, outcome } = await lookup(creatorId, examId, capability);
      if (outcome === 'not-found' || !found) throw new AppError(ErrorCode.NOT_FOUND, EXAM_NOT_FOUND);
      if (outcome === 'forbidden') throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS[capability]);
      return { row: found.row, grant: grantOn(found, creatorId)! };
    },

    /** The exam when the caller holds the capability on it, else undefined (for callers with their own refusal). */
    async find(creatorId: string, examId: string, capability: ExamCapability): Promise<ExamRow | undefined> {
      const { found, outcome } = await lookup(creatorId, examId, capability);
      return outcome === 'ok' ? found?.row : undefined;
    },
  };
}
export type ExamAccessCheck = ReturnType<typeof createExamAccess>;
