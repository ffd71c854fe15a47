import { AppError, ErrorCode } from '@exam/domain/errors';
import type { ExamReleaseReport, GradingEntry } from '@exam/domain/result';
import type { Deps } from '../../deps.ts';
import { applyGradingEntries, gradeChanges } from '../../scoring/marks.ts';
import { nextResultState, scoreAttempt, type StoredGrade } from '../../scoring/score.ts';
import type { HistoryRow, LockedResult, ResultWritesRepository, Writes } from './result-writes.repository.ts';
import { auditActorOf } from '../../access/exam-ownership.ts';
import { resultNotFound } from '../results/results.service.ts';

/**
 * Who changes a grade: the exam owner's id (the rows' scope), the acting creator's e-mail (the history's `by`) and,
 * when a member acts for the owner, their own id (the audit log's actor; access/exam-ownership.ts actingIn).
 */
export type Grader = { sub: string; email: string; actorId?: string };

export const OverrideMessages = {
  reason: 'Say why you override the points the tests gave',
} as const;

/**
 * A grader may override the points a question's finished tests gave, but says why (kept in the history):
 * every entry setting points on such a question needs a reason, reported as `grading.<entry>.reason`.
 */
function assertOverrideReasons(grades: readonly StoredGrade[], entries: readonly GradingEntry[]) {
  const issues = entries.flatMap((entry, at) =>
    entry.points !== null && grades[entry.questionIndex]?.tests?.state === 'done' && !entry.reason
      ? [{ path: `grading.${at}.reason`, message: OverrideMessages.reason }]
      : [],
  );
  if (issues.length) throw new AppError(ErrorCode.VALIDATION, 'Some grades cannot be saved', issues);
}

export const ReleaseMessages = {
  pending: 'This result is still awaiting grading: mark every question before releasing it.',
} as const;

/** A result released, or no longer released, with its history row; undefined when it already is. */
export function setReleased({ result }: LockedResult, released: boolean, by: string, now: Date): Writes | undefined {
  if (released === (result.releasedAt !== null)) return undefined;
  if (released && result.status === 'pending') throw new AppError(ErrorCode.CONFLICT, ReleaseMessages.pending);
  const history: HistoryRow = {
    resultId: result.id,
    at: now,
    by,
    kind: released ? 'release' : 'unrelease',
    questionIndex: null,
    before: null,
    after: null,
  };
  return {
    writes: [
      {
        resultId: result.id,
        attemptId: result.attemptId,
        result: { releasedAt: released ? now : null, status: released ? 'released' : 'graded', updatedAt: now },
      },
    ],
    history: [history],
  };
}

/**
 * A grader's marks and releases (docs/product.md#results-and-grading). Every change is recomputed on the
 * server through scoreAttempt and leaves one history row per question changed (or per release).
 */
export function createGradingService(writes: ResultWritesRepository, deps: Pick<Deps, 'clock' | 'examSource'>) {
  return {
    /**
     * Applies the grader's entries. Explicit values, so the same request twice changes nothing the second
     * time (no history rows either). Another creator's result is a 404, as if it did not exist.
     */
    async grade(id: string, grader: Grader, entries: readonly GradingEntry[]): Promise<void> {
      const now = deps.clock.now();
      const found = await writes.changeResult(id, grader.sub, ({ result, snapshot }) => {
        assertOverrideReasons(result.grades, entries);
        const marked = applyGradingEntries(snapshot, result.grades, entries);
        const reasons = new Map(entries.flatMap((e) => (e.reason ? [[e.questionIndex, e.reason] as const] : [])));
        const answers = result.grades.map((g) => g.answer);
        const { grades, totals } = scoreAttempt(snapshot, answers, marked, { released: result.releasedAt !== null });
        const changes = gradeChanges(result.grades, grades);
        if (changes.length === 0) return undefined;
        const state = nextResultState(result, totals, now);
        const history: HistoryRow[] = changes.map((c) => ({
          resultId: id,
          at: now,
          by: grader.email,
          kind: 'grade',
          ...c,
          ...(reasons.has(c.questionIndex) ? { reason: reasons.get(c.questionIndex) } : {}),
        }));
        if (result.releasedAt && !state.releasedAt)
          history.push({ resultId: id, at: now, by: grader.email, kind: 'unrelease', questionIndex: null });
        return {
          writes: [{ resultId: id, attemptId: result.attemptId, result: { grades, ...state, updatedAt: now } }],
          history,
          actor: auditActorOf(grader),
        };
      });
      if (!found) throw resultNotFound();
    },

    /** Releases (or withdraws) one graded result; a pending one is a 409. */
    async release(id: string, grader: Grader, released: boolean): Promise<void> {
      const now = deps.clock.now();
      const found = await writes.changeResult(id, grader.sub, (locked) => {
        const changed = setReleased(locked, released, grader.email, now);
        return changed && { ...changed, actor: auditActorOf(grader) };
      });
      if (!found) throw resultNotFound();
    },

    /** Releases (or withdraws) every graded result of the owner's exam; pending ones are counted and left. */
    async releaseExam(examId: string, grader: Grader, released: boolean): Promise<ExamReleaseReport> {
      const now = deps.clock.now();
      const report = await writes.changeExamResults(examId, grader.sub, { apply: true }, (locked) => {
        const pending = locked.filter((l) => l.result.status === 'pending');
        const changed = locked
          .filter((l) => l.result.status !== 'pending')
          .flatMap((l) => setReleased(l, released, grader.email, now) ?? []);
        return {
          writes: changed.flatMap((c) => c.writes),
          history: changed.flatMap((c) => c.history),
          actor: auditActorOf(grader),
          value: { released, changed: changed.length, pending: pending.length, results: locked.length },
        };
      });
      return { released: report.released, changed: report.changed, pending: report.pending };
    },
  };
}
export type GradingService = ReturnType<typeof createGradingService>;
