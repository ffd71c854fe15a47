import { candidateKey } from '@exam/domain/candidate-key';
import { attemptDeadline, windowIssue, type Override, type OverrideInput } from '@exam/domain/cohort';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import type { Deps } from '../../deps.ts';
import { recordAudit, type AuditEntry } from '../../access/audit-log.ts';
import { assertCan, auditActorOf } from '../../access/exam-ownership.ts';
import { candidateRules, toOverride } from './cohort-rules.ts';
import type { CohortRepository, OverrideRow } from './cohort.repository.ts';

/**
 * The creator's per-candidate accommodations (docs/product.md#windows-attempts-and-accommodations). The exam's
 * owner and the members who control the live view (as exam-service says) read and change them; `ownerId` and
 * `creator.sub` are the exam owner's id (access/exam-guard.ts actorOf). A change during the candidate's attempt moves
 * its stored deadline, which the writes check, the finalizer and the candidate's countdown all read.
 */
export function createOverridesService(repo: CohortRepository, deps: Pick<Deps, 'clock' | 'examSource' | 'database'>) {
  /** An omitted field keeps the stored value; null clears it (the exam's setting applies again). */
  const merge = <T>(input: T | null | undefined, stored: T | null): T | null => (input === undefined ? stored : input);

  return {
    async list(examId: string, ownerId: string): Promise<Override[]> {
      const exam = await assertCan(deps, examId, ownerId, 'live:control');
      await repo.rememberKeepGrade(exam.id, exam.keepGrade, deps.clock.now());
      return (await repo.listOverrides(examId)).map(toOverride);
    },

    async put(
      examId: string,
      studentId: string,
      input: OverrideInput,
      creator: { sub: string; email: string; actorId?: string },
    ): Promise<Override> {
      const exam = await assertCan(deps, examId, creator.sub, 'live:control');
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
      await recordAudit(deps.database.db, auditActorOf(creator), now, overrideAudit(examId, stored, saved));
      await repo.rememberKeepGrade(exam.id, exam.keepGrade, now);
      const open = await repo.openAttemptOf(examId, key);
      if (open) await repo.setDeadline(open.id, deadlineOf(exam, open, saved));
      return toOverride(saved);
    },

    /**
     * After the exam's own window or timer changed (exam-service calls POST /internal/exams/:id/deadlines),
     * every attempt in progress gets the deadline the exam and its candidate's override now give it.
     */
    async recomputeDeadlines(examId: string): Promise<number> {
      const exam = await deps.examSource.findExam(examId);
      if (!exam) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
      const [open, list] = await Promise.all([repo.openAttemptsOfExam(examId), repo.listOverrides(examId)]);
      const byKey = new Map(list.map((o) => [o.candidateKey, o]));
      let moved = 0;
      for (const attempt of open) {
        const deadline = deadlineOf(exam, attempt, byKey.get(attempt.candidateKey));
        if ((deadline?.getTime() ?? null) === (attempt.deadline?.getTime() ?? null)) continue;
        if (await repo.setDeadline(attempt.id, deadline)) moved++;
      }
      return moved;
    },
  };
}
export type OverridesService = ReturnType<typeof createOverridesService>;

/** The attempt's own exam (its snapshot) sets the timer; the live exam and the override set the close. */
function deadlineOf(
  exam: InternalExam,
  attempt: { startedAt: Date; snapshot: { timerEnabled: boolean; timerMinutes: number } },
  override: OverrideRow | undefined,
): Date | null {
  const timer = { timerEnabled: attempt.snapshot.timerEnabled, timerMinutes: attempt.snapshot.timerMinutes };
  const rules = candidateRules({ ...exam, ...timer }, override ? toOverride(override) : null);
  return attemptDeadline(attempt.startedAt, rules.durationMinutes, rules.window.closesAt);
}

/** The audit log's events of an accommodation change: extra time apart from the other accommodations. */
function overrideAudit(examId: string, before: OverrideRow | undefined, after: OverrideRow): AuditEntry[] {
  const fields = (row: OverrideRow | undefined, names: readonly (keyof OverrideRow)[]) =>
    Object.fromEntries(
      names.map((n) => [n, row?.[n] instanceof Date ? (row[n] as Date).toISOString() : (row?.[n] ?? null)]),
    );
  const changes = (names: readonly (keyof OverrideRow)[]) => {
    const from = fields(before, names);
    const to = fields(after, names);
    return JSON.stringify(from) === JSON.stringify(to) ? undefined : { from, to };
  };
  const time = changes(['extraMinutes', 'timeFactor']);
  const other = changes(['opensAt', 'closesAt', 'attemptsAllowed']);
  const subject = after.studentId;
  return [
    ...(time ? [{ examId, action: 'attempt.time-extended' as const, subject, detail: time }] : []),
    ...(other ? [{ examId, action: 'attempt.accommodation-changed' as const, subject, detail: other }] : []),
  ];
}
