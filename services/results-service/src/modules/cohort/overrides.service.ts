import { candidateKey } from '@exam/domain/attempt-binding';
import { attemptDeadline, windowIssue, type Override, type OverrideInput } from '@exam/domain/cohort';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Deps } from '../../deps.ts';
import { assertOwnsExam } from '../results/results.service.ts';
import { candidateRules, toOverride } from './cohort-rules.ts';
import type { CohortRepository, OverrideRow } from './cohort.repository.ts';

/**
 * The creator's per-candidate accommodations (docs/product.md#windows-attempts-and-accommodations). Only the
 * exam's owner (as exam-service says) reads or changes them. A change during the candidate's attempt moves
 * its stored deadline, which the writes check, the finalizer and the candidate's countdown all read.
 */
export function createOverridesService(repo: CohortRepository, deps: Pick<Deps, 'clock' | 'examSource'>) {
  /** An omitted field keeps the stored value; null clears it (the exam's setting applies again). */
  const merge = <T>(input: T | null | undefined, stored: T | null): T | null => (input === undefined ? stored : input);

  return {
    async list(examId: string, ownerId: string): Promise<Override[]> {
      const exam = await assertOwnsExam(deps, examId, ownerId);
      await repo.rememberKeepGrade(exam.id, exam.keepGrade, deps.clock.now());
      return (await repo.listOverrides(examId)).map(toOverride);
    },

    async put(
      examId: string,
      studentId: string,
      input: OverrideInput,
      creator: { sub: string; email: string },
    ): Promise<Override> {
      const exam = await assertOwnsExam(deps, examId, creator.sub);
      const now = deps.clock.now();
      const key = candidateKey(studentId);
      const stored = await repo.findOverride(examId, key);
      const date = (value: string | null | undefined) => (typeof value === 'string' ? new Date(value) : value);
      const row: OverrideRow = {
        examId,
        candidateKey: key,
        studentId: studentId.trim(),
        extraMinutes: merge(input.extraMinutes, stored?.extraMinutes ?? null),
        timeFactor: merge(input.timeFactor, stored?.timeFactor ?? null),
        opensAt: merge(date(input.opensAt), stored?.opensAt ?? null),
        closesAt: merge(date(input.closesAt), stored?.closesAt ?? null),
        attemptsAllowed: merge(input.attemptsAllowed, stored?.attemptsAllowed ?? null),
        updatedAt: now,
        updatedBy: creator.email,
      };
      // The window the candidate ends up with, the exam's parts included, must still close after it opens.
      const rules = candidateRules(exam, toOverride(row));
      const issue = windowIssue(rules.window);
      if (issue) {
        throw new AppError(ErrorCode.VALIDATION, issue.message, [
          { path: issue.path.join('.'), message: issue.message },
        ]);
      }
      const saved = await repo.saveOverride(row);
      await repo.rememberKeepGrade(exam.id, exam.keepGrade, now);
      const open = await repo.openAttemptOf(examId, key);
      if (open) {
        // The attempt's own exam (its snapshot) sets the timer; the live exam and the override set the close.
        const own = candidateRules({ ...exam, ...pickTimer(open.snapshot) }, toOverride(saved));
        await repo.setDeadline(open.id, attemptDeadline(open.startedAt, own.durationMinutes, own.window.closesAt));
      }
      return toOverride(saved);
    },
  };
}
export type OverridesService = ReturnType<typeof createOverridesService>;

const pickTimer = (snapshot: { timerEnabled: boolean; timerMinutes: number }) => ({
  timerEnabled: snapshot.timerEnabled,
  timerMinutes: snapshot.timerMinutes,
});
