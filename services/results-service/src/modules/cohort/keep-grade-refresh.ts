import type { Deps } from '../../deps.ts';
import type { CohortRepository } from './cohort.repository.ts';

export type RefreshKeepGrade = (examId: string, ownerId: string) => Promise<void>;

/**
 * Reads the exam's keepGrade from exam-service before a read that counts one result per candidate, so a
 * rule the creator changed after the last start applies. Best effort: when exam-service cannot answer,
 * the rule results-service last saw stands.
 */
export function keepGradeRefresher(
  repo: Pick<CohortRepository, 'rememberKeepGrade'>,
  deps: Pick<Deps, 'clock' | 'examSource'>,
): RefreshKeepGrade {
  return async (examId, ownerId) => {
    const exam = await deps.examSource.findExam(examId).catch(() => undefined);
    if (exam && exam.ownerId === ownerId) await repo.rememberKeepGrade(exam.id, exam.keepGrade, deps.clock.now());
  };
}
