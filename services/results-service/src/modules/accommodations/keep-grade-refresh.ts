import type { InternalExam } from '@exam/domain/internal';
import type { Deps } from '../../deps.ts';
import type { CohortRepository } from './cohort.repository.ts';

/** `read`: the exam as the caller just read it from exam-service (undefined: not found), so it is not read twice. */
export type RefreshKeepGrade = (
  examId: string,
  ownerId: string,
  read?: { exam: InternalExam | undefined },
) => Promise<void>;

/**
 * Reads the exam's keepGrade from exam-service before a read that counts one result per candidate, so a
 * rule the creator changed after the last start applies. Best effort: when exam-service cannot answer,
 * the rule results-service last saw stands.
 */
export function keepGradeRefresher(
  repo: Pick<CohortRepository, 'rememberKeepGrade'>,
  deps: Pick<Deps, 'clock' | 'examSource'>,
): RefreshKeepGrade {
  return async (examId, ownerId, read) => {
    const exam = read ? read.exam : await deps.examSource.findExam(examId).catch(() => undefined);
    if (exam && exam.ownerId === ownerId) await repo.rememberKeepGrade(exam.id, exam.keepGrade, deps.clock.now());
  };
}
