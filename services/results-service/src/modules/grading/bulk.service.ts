import { AppError, ErrorCode } from '@exam/domain/errors';
import type { BulkResultAction, BulkResultsReport } from '@exam/domain/result';
import { isUnanswered } from '@exam/domain/unanswered';
import type { Deps } from '../../deps.ts';
import { nextResultState, scoreAttempt, type StoredGrade } from '../../scoring/score.ts';
import { gradeChanges } from '../../scoring/marks.ts';
import { allowedExamsOf, auditActorOf } from '../../access/exam-ownership.ts';
import { setReleased, type Grader } from './grading.service.ts';
import type { HistoryRow, LockedResult, ResultWritesRepository, Writes } from './result-writes.repository.ts';

/** Kept in the history beside each question the bulk action scored, so the grade says where it came from. */
export const BULK_UNANSWERED_REASON = 'Unanswered — scored 0 by a bulk action';

export const BulkMessages = {
  notFound: 'Some of the chosen results were not found: reload the list and choose again.',
} as const;

type Outcome = Writes & { changed: boolean; questionsScored: number };
const UNCHANGED: Outcome = { writes: [], history: [], changed: false, questionsScored: 0 };

/**
 * Gives 0, as a grader's mark with the "unanswered" marker, to each question of the result still awaiting grading
 * that its candidate left unanswered; the score and status follow through scoreAttempt, as for any mark.
 */
function scoreUnanswered({ result, snapshot }: LockedResult, by: string, now: Date): Outcome {
  const marked: StoredGrade[] = result.grades.map((g, i) => {
    const q = snapshot.questions[i];
    if (!q || g.points !== null || g.manual || !isUnanswered(q, g.answer)) return g;
    return { ...g, points: 0, manual: true, criteria: [], unanswered: true };
  });
  const answers = result.grades.map((g) => g.answer);
  const { grades, totals } = scoreAttempt(snapshot, answers, marked, { released: result.releasedAt !== null });
  const changes = gradeChanges(result.grades, grades);
  if (changes.length === 0) return UNCHANGED;
  const state = nextResultState(result, totals, now);
  const history: HistoryRow[] = changes.map((c) => ({
    resultId: result.id,
    at: now,
    by,
    kind: 'grade',
    ...c,
    reason: BULK_UNANSWERED_REASON,
  }));
  return {
    writes: [{ resultId: result.id, attemptId: result.attemptId, result: { grades, ...state, updatedAt: now } }],
    history,
    changed: true,
    questionsScored: changes.length,
  };
}

/** Shows or hides a graded result; a pending one is left as it is (counted by the caller). */
function release(locked: LockedResult, released: boolean, by: string, now: Date): Outcome {
  if (locked.result.status === 'pending') return UNCHANGED;
  const writes = setReleased(locked, released, by, now);
  return writes ? { ...writes, changed: true, questionsScored: 0 } : UNCHANGED;
}

/**
 * One action on many of the creator's results (docs/product.md#results-and-grading), in one transaction: every
 * result named must be the creator's, or nothing is written (404, as for one result of another creator). Each change
 * leaves the history rows the same change made on one result leaves, and the LMS score outbox follows the writes.
 */
export function createBulkResultsService(
  writes: ResultWritesRepository,
  deps: Pick<Deps, 'clock' | 'examSource' | 'database'>,
) {
  return {
    /** `grader`: the creator's own claims; each result's exam must let them grade (or release). */
    async apply(
      grader: Grader,
      action: BulkResultAction,
      resultIds: readonly string[],
    ): Promise<BulkResultsReport & { examIds: string[] }> {
      const now = deps.clock.now();
      const capability = action === 'score-unanswered' ? 'results:grade' : 'results:release';
      const examIds = await allowedExamsOf(deps, resultIds, grader.sub, capability);
      const report = await writes.changeOwnedResults(examIds, resultIds, (locked) => {
        const outcomes = locked.map((l) => {
          const outcome =
            action === 'score-unanswered'
              ? scoreUnanswered(l, grader.email, now)
              : release(l, action === 'release', grader.email, now);
          const status = outcome.writes[0]?.result?.status ?? l.result.status;
          return { ...outcome, pending: status === 'pending', examId: l.result.examId };
        });
        return {
          writes: outcomes.flatMap((o) => o.writes),
          history: outcomes.flatMap((o) => o.history),
          actor: auditActorOf(grader),
          value: {
            action,
            results: locked.length,
            changed: outcomes.filter((o) => o.changed).length,
            pending: outcomes.filter((o) => o.pending).length,
            questionsScored: outcomes.reduce((n, o) => n + o.questionsScored, 0),
            examIds: [...new Set(outcomes.filter((o) => o.changed).map((o) => o.examId))],
          },
        };
      });
      if (!report) throw new AppError(ErrorCode.NOT_FOUND, BulkMessages.notFound);
      return report;
    },
  };
}
export type BulkResultsService = ReturnType<typeof createBulkResultsService>;
