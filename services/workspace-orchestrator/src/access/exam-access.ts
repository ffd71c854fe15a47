import { AppError, ErrorCode } from '@exam/domain/errors';
import { CAPABILITY_REFUSALS, checkAccess, type ExamCapability } from '@exam/domain/roles';
import type { ExamDirectory } from '../deps.ts';

/** An exam a row names, with the owner the row carries when it does. */
export type ExamRef = { examId: string; ownerId?: string | null | undefined };

/** The outcome of a creator's access (checkAccess), asking exam-service only for someone other than the row's owner. */
export async function accessTo(
  directory: Pick<ExamDirectory, 'examAccess'>,
  exam: ExamRef,
  creatorId: string,
  capability: ExamCapability,
): Promise<'ok' | 'not-found' | 'forbidden'> {
  if (exam.ownerId === creatorId) return 'ok';
  const access = await directory.examAccess(exam.examId);
  return checkAccess(access && { ...access, ownerId: exam.ownerId ?? access.ownerId }, creatorId, capability);
}

/**
 * The one access check of a creator's exam in workspace-orchestrator (@exam/domain/roles). `ownerId`, when the
 * orchestrator's own row carries the exam's owner, lets the owner pass without asking exam-service; a member passes
 * by their role on the exam. No role: NOT_FOUND as `what` (ids cannot be probed); a role without the capability:
 * FORBIDDEN naming what it does not allow.
 */
export async function assertCan(
  directory: Pick<ExamDirectory, 'examAccess'>,
  exam: ExamRef,
  creatorId: string,
  capability: ExamCapability,
  what = 'Exam',
): Promise<void> {
  const outcome = await accessTo(directory, exam, creatorId, capability);
  if (outcome === 'forbidden') throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS[capability]);
  if (outcome === 'not-found') throw new AppError(ErrorCode.NOT_FOUND, `${what} not found`);
}
