import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Deps } from '../deps.ts';

/**
 * The one ownership check of a creator's exam in results-service: every module that serves a creator an exam's
 * attempts, results, grades or accommodations asks here. Another creator's exam looks exactly like one that does not
 * exist (404, never 403), so ids cannot be probed.
 */
export async function assertOwnsExam(deps: Pick<Deps, 'examSource'>, examId: string, ownerId: string) {
  const exam = await deps.examSource.findExam(examId);
  if (!exam || exam.ownerId !== ownerId) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
  return exam;
}
