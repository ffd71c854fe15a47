import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import { CAPABILITY_REFUSALS, checkAccess, type ExamCapability } from '@exam/domain/roles';
import type { Deps } from '../deps.ts';

/**
 * The one access check of a creator's exam in llm-gateway (@exam/domain/roles): the owner and the members whose role
 * allows the capability pass; a creator with no role on the exam gets 404 exactly as for an exam that does not exist
 * (ids cannot be probed), a role without the capability 403 naming what it does not allow.
 */
export async function assertCan(
  deps: Pick<Deps, 'exams'>,
  examId: string,
  creatorId: string,
  capability: ExamCapability,
  what = 'Exam',
): Promise<InternalExam> {
  const exam = await deps.exams.findExam(examId);
  const outcome = checkAccess(exam, creatorId, capability);
  if (outcome === 'forbidden') throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS[capability]);
  if (outcome === 'not-found' || !exam) throw notFound(what);
  return exam;
}

/**
 * Whether the creator may read a candidate's attempt (its transcript, its agent's calls): `ownerId` is the owner the
 * gateway's rows carry; the owner passes without asking exam-service, a member by their role on the attempt's exam.
 * 404 (as `what`) when the attempt is not theirs in any role or does not exist.
 */
export async function assertCanReadAttempt(
  deps: Pick<Deps, 'exams' | 'attempts'>,
  attemptId: string,
  stored: { ownerId: string; examId: string } | undefined,
  creatorId: string,
  what: string,
): Promise<void> {
  const known = stored?.examId
    ? { ownerId: stored.ownerId, examId: stored.examId }
    : await deps.attempts.findAttempt(attemptId);
  if (!known) throw notFound(what);
  if (known.ownerId === creatorId) return;
  const exam = await deps.exams.findExam(known.examId);
  const outcome = checkAccess(exam && { ...exam, ownerId: known.ownerId }, creatorId, 'results:read');
  if (outcome === 'forbidden') throw new AppError(ErrorCode.FORBIDDEN, CAPABILITY_REFUSALS['results:read']);
  if (outcome === 'not-found') throw notFound(what);
}
