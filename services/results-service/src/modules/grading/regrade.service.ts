import { isDeepStrictEqual } from 'node:util';
import { isTestGraded } from '@exam/domain/coding';
import type { InternalExam } from '@exam/domain/internal';
import type { RegradeReport } from '@exam/domain/result';
import type { Deps } from '../../deps.ts';
import { nextResultState, scoreAttempt } from '../../scoring/score.ts';
import { withCurrentKeys } from '../../scoring/snapshot.ts';
import type { Grader } from './grading.service.ts';
import type { HistoryRow, LockedResult, ResultWrite, ResultWritesRepository } from './result-writes.repository.ts';
import type { TestGradingService } from './test-grading.service.ts';
import { assertCan, auditActorOf } from '../../access/exam-ownership.ts';

type QuestionTally = RegradeReport['questions'][number];
type SnapshotQuestion = LockedResult['snapshot']['questions'][number];

/** What a test run depends on: a change of any of it makes the stored verdicts stale. */
const testSetup = (q: SnapshotQuestion | undefined) =>
  q && isTestGraded(q) ? [q.language, q.tests, q.limits, q.setupScript] : null;

/** Compared by value: the stored snapshot (jsonb) keeps its keys in an order of its own. */
const setupChanged = (now: SnapshotQuestion, before: SnapshotQuestion | undefined) =>
  testSetup(now) !== null && !isDeepStrictEqual(testSetup(now), testSetup(before));

/** One result re-scored with the exam's current keys: what it writes and how its points moved. */
function regradeOne({ result, snapshot }: LockedResult, exam: InternalExam, by: string, now: Date) {
  const next = withCurrentKeys(snapshot, exam);
  const answers = result.grades.map((g) => g.answer);
  // The grader's marks are passed through untouched: a regrade changes only what the keys decide.
  const { grades, totals } = scoreAttempt(next, answers, result.grades, { released: result.releasedAt !== null });
  const state = nextResultState(result, totals, now);
  const moved = grades.flatMap((g, questionIndex) => {
    const before = result.grades[questionIndex];
    if (before && before.points === g.points) return [];
    return [{ questionIndex, id: next.questions[questionIndex]?.id, before: before?.points ?? null, after: g.points }];
  });
  const changed =
    moved.length > 0 ||
    totals.score !== result.score ||
    totals.maxScore !== result.maxScore ||
    totals.status !== result.status;
  const history: HistoryRow[] = moved.map((m) => {
    const feedback = grades[m.questionIndex]?.feedback ?? '';
    return {
      resultId: result.id,
      at: now,
      by,
      kind: 'regrade',
      questionIndex: m.questionIndex,
      before: { points: m.before, feedback },
      after: { points: m.after, feedback },
    };
  });
  if (result.releasedAt && !state.releasedAt)
    history.push({ resultId: result.id, at: now, by, kind: 'unrelease', questionIndex: null });
  const write: ResultWrite = {
    resultId: result.id,
    attemptId: result.attemptId,
    snapshot: next,
    ...(changed ? { result: { grades, ...state, updatedAt: now } } : {}),
  };
  // Questions whose tests (or limits, setup, language) changed are run again once the regrade is stored.
  const retest = next.questions.flatMap((q, i) => (setupChanged(q, snapshot.questions[i]) ? [i] : []));
  return { write, history, moved, changed, retest, before: result.score, after: totals.score };
}

/**
 * Re-scores every result of an exam with the exam's current keys and points (docs/product.md#results-and-grading):
 * each attempt's snapshot takes the scoring fields of the questions the exam still has, by id, and the
 * exam's rubrics. A dry run reports and writes nothing; otherwise snapshots, grades and scores are stored
 * with one history row per question whose points moved.
 */
export function createRegradeService(
  writes: ResultWritesRepository,
  testGrading: Pick<TestGradingService, 'rerun'>,
  deps: Pick<Deps, 'clock' | 'examSource'>,
) {
  return {
    async regrade(examId: string, grader: Grader, dryRun: boolean): Promise<RegradeReport> {
      // `grader` acts in the exam's scope (the route's guard checked the member's role): sub is the owner's id.
      const exam = await assertCan(deps, examId, grader.sub, 'results:grade');
      const now = deps.clock.now();
      const retests: Array<{ resultId: string; questionIndex: number }> = [];
      const report = await writes.changeExamResults(examId, grader.sub, { apply: !dryRun }, (locked) => {
        const regraded = locked.map((l) => ({ l, ...regradeOne(l, exam, grader.email, now) }));
        for (const r of regraded)
          for (const questionIndex of r.retest) retests.push({ resultId: r.l.result.id, questionIndex });
        const tallies = new Map<string, QuestionTally>(
          exam.questions.map((q, questionIndex) => [
            q.id,
            { questionIndex, title: q.title, changed: 0, up: 0, down: 0 },
          ]),
        );
        for (const r of regraded) {
          for (const m of r.moved) {
            const tally = m.id === undefined ? undefined : tallies.get(m.id);
            if (!tally) continue;
            tally.changed++;
            if ((m.after ?? 0) > (m.before ?? 0)) tally.up++;
            if ((m.after ?? 0) < (m.before ?? 0)) tally.down++;
          }
        }
        const changed = regraded.filter((r) => r.changed);
        return {
          writes: regraded.map((r) => r.write),
          history: regraded.flatMap((r) => r.history),
          actor: auditActorOf(grader),
          value: {
            dryRun,
            results: locked.length,
            testsRerun: regraded.reduce((n, r) => n + r.retest.length, 0),
            changed: changed.length,
            up: changed.filter((r) => r.after > r.before).length,
            down: changed.filter((r) => r.after < r.before).length,
            questions: [...tallies.values()],
            changes: changed.map((r) => ({
              resultId: r.l.result.id,
              userName: r.l.result.userName,
              studentId: r.l.result.studentId,
              before: r.before,
              after: r.after,
            })),
          },
        };
      });
      // After the regrade's transaction, as the job does it: the outbox row is locked before the result.
      if (!dryRun) for (const r of retests) await testGrading.rerun(r.resultId, grader, r.questionIndex);
      return report;
    },
  };
}
export type RegradeService = ReturnType<typeof createRegradeService>;
