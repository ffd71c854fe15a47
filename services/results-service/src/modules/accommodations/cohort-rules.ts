import { candidateDurationMinutes, effectiveWindow, type CandidateOverride, type Override } from '@exam/domain/cohort';
import type { InternalExam } from '@exam/domain/internal';
import type { OverrideRow } from './cohort.repository.ts';

export function toOverride(row: OverrideRow): Override {
  return {
    studentId: row.studentId,
    extraMinutes: row.extraMinutes,
    timeFactor: row.timeFactor,
    opensAt: row.opensAt?.toISOString() ?? null,
    closesAt: row.closesAt?.toISOString() ?? null,
    attemptsAllowed: row.attemptsAllowed,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the exam and the candidate's override make of their window, time and attempts. */
export function candidateRules(
  exam: Pick<InternalExam, 'opensAt' | 'closesAt' | 'attemptsAllowed' | 'timerEnabled' | 'timerMinutes'>,
  override: CandidateOverride | null,
) {
  return {
    window: effectiveWindow(exam, override),
    durationMinutes: candidateDurationMinutes(exam, override),
    attemptsAllowed: override?.attemptsAllowed ?? exam.attemptsAllowed,
  };
}
