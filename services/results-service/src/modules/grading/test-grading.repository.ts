import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { allowedLanguages, isTestGraded, type TestGrading } from '@exam/domain/coding';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, gradeHistory, results, testGradings } from '../../db/schema.ts';
import { nextResultState, QUEUED_TESTS, scoreAttempt, type StoredGrade } from '../../scoring/score.ts';
import { candidateRepository, codeToRun } from '../../scoring/test-code.ts';
import { createChosenLanguagesRepository } from '../attempts/chosen-languages.repository.ts';
import { recordScoreChanges } from '../lti/score-sync.repository.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';

export type TestGradingRow = typeof testGradings.$inferSelect;
/** A claimed outbox row with what a run needs: the question as the attempt's snapshot has it. */
export type ClaimedGrading = { row: TestGradingRow; snapshot: ExamSnapshot; examId: string };
/** What the job decided for one claimed row: the row's new columns and, when final, the result's new test grading. */
export type GradingStep = {
  row: Partial<Pick<TestGradingRow, 'runId' | 'state' | 'tries' | 'nextAt'>>;
  tests?: TestGrading;
};

/** How long a pass holds the rows it claimed before another pass may take them (a dead replica's rows). */
export const CLAIM_LEASE_MS = 120_000;

/**
 * The test-grading outbox (test_gradings). Each pass claims due rows FOR UPDATE SKIP LOCKED and leases them,
 * so replicas running the job at once share the rows and a run is started once; the decision (`decide`, which
 * may call the runner) runs outside any transaction, and its writes, result included, in one after it.
 */
export function createTestGradingRepository(database: ResultsDatabase) {
  const { db } = database;
  const chosenLanguages = createChosenLanguagesRepository(database);
  type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

  /** Sets the question's test grading in the result and re-scores it through scoreAttempt, with a history row. */
  async function writeTests(
    tx: Tx,
    resultId: string,
    questionIndex: number,
    tests: TestGrading,
    now: Date,
    by: string,
  ) {
    const [locked] = await tx
      .select({ result: results, snapshot: attempts.examSnapshot })
      .from(results)
      .innerJoin(attempts, eq(attempts.id, results.attemptId))
      .where(eq(results.id, resultId))
      .for('update');
    if (!locked) return;
    const { result, snapshot } = locked;
    const before = result.grades[questionIndex];
    if (!before) return;
    const previous: StoredGrade[] = result.grades.map((g, i) => (i === questionIndex ? { ...g, tests } : g));
    const { grades, totals } = scoreAttempt(
      snapshot,
      result.grades.map((g) => g.answer),
      previous,
      { released: result.releasedAt !== null },
    );
    const state = nextResultState(result, totals, now);
    const after = grades[questionIndex]!;
    await tx
      .update(results)
      .set({ grades, ...state, updatedAt: now })
      .where(eq(results.id, resultId));
    await tx.insert(gradeHistory).values({
      resultId,
      at: now,
      by,
      kind: 'tests',
      questionIndex,
      before: { points: before.points, feedback: before.feedback },
      after: { points: after.points, feedback: after.feedback },
      ...(tests.reason ? { reason: tests.reason } : {}),
    });
    // A re-run makes a released result pending again: it is withdrawn, as a grader's change would do.
    if (result.releasedAt && !state.releasedAt)
      await tx.insert(gradeHistory).values({ resultId, at: now, by, kind: 'unrelease', questionIndex: null });
    await recordScoreChanges(tx, [resultId], now);
  }

  return {
    writeTests,

    /**
     * Claims up to `limit` due rows in `states`, lets `decide` say what each becomes (it may call the runner
     * for the whole batch), and writes it. Returns how many rows it claimed and how many changed state (a run still going did not).
     *
     * Three steps, and no transaction open while `decide` calls the runner: a transaction waiting on another
     * service holds its locks for that long, and on the embedded database (one PGlite serving every service, an
     * open transaction's connection alone) the orchestrator could not even record the run it was asked for
     * until the call timed out. The claim takes the rows FOR UPDATE SKIP LOCKED and leases them (next_at moves
     * CLAIM_LEASE_MS ahead, so no other pass takes them meanwhile; a replica that dies mid-way leaves them to
     * be claimed again when the lease ends) and stamps updated_at; the write applies a step only to a row
     * still carrying that stamp, so a creator's re-run queued in between is not overwritten.
     */
    async process(
      states: Array<TestGradingRow['state']>,
      now: Date,
      limit: number,
      decide: (claimed: ClaimedGrading[]) => Promise<Map<ClaimedGrading, GradingStep>>,
    ): Promise<{ claimed: number; moved: number }> {
      const claim = await db.transaction(async (tx) => {
        const locked = await tx
          .select()
          .from(testGradings)
          .where(and(inArray(testGradings.state, states), lte(testGradings.nextAt, now)))
          .orderBy(asc(testGradings.nextAt))
          .limit(limit)
          .for('update', { skipLocked: true });
        if (locked.length === 0) return { locked, rows: [], orphans: 0 };
        const ids = [...new Set(locked.map((r) => r.attemptId))];
        const owners = await tx
          .select({ id: attempts.id, snapshot: attempts.examSnapshot, examId: attempts.examId })
          .from(attempts)
          .where(inArray(attempts.id, ids));
        const byId = new Map(owners.map((a) => [a.id, a]));
        const rows: ClaimedGrading[] = [];
        let orphans = 0;
        for (const row of locked) {
          const attempt = byId.get(row.attemptId);
          const key = and(eq(testGradings.resultId, row.resultId), eq(testGradings.questionIndex, row.questionIndex));
          if (!attempt) {
            // A row whose attempt is gone has nothing to run; it is closed so it is never claimed again.
            await tx.update(testGradings).set({ state: 'error', updatedAt: now }).where(key);
            orphans++;
            continue;
          }
          await tx
            .update(testGradings)
            .set({ nextAt: new Date(now.getTime() + CLAIM_LEASE_MS), updatedAt: now })
            .where(key);
          rows.push({ row, snapshot: attempt.snapshot, examId: attempt.examId });
        }
        return { locked, rows, orphans };
      });
      if (claim.rows.length === 0) return { claimed: claim.locked.length, moved: claim.orphans };
      const steps = await decide(claim.rows);
      return db.transaction(async (tx) => {
        let moved = claim.orphans;
        for (const [claimed, step] of steps) {
          const key = and(
            eq(testGradings.resultId, claimed.row.resultId),
            eq(testGradings.questionIndex, claimed.row.questionIndex),
          );
          const [still] = await tx
            .select({ updatedAt: testGradings.updatedAt })
            .from(testGradings)
            .where(key)
            .for('update');
          if (still?.updatedAt.getTime() !== now.getTime()) continue;
          if (step.row.state !== undefined || step.tests) moved++;
          await tx
            .update(testGradings)
            .set({ nextAt: now, ...step.row, updatedAt: now })
            .where(key);
          if (step.tests)
            await writeTests(tx, claimed.row.resultId, claimed.row.questionIndex, step.tests, now, 'runner');
        }
        return { claimed: claim.locked.length, moved };
      });
    },

    /**
     * Queues a question's grading again (a creator's re-run): the outbox row is locked first, then the
     * result, the same order as the job, so the two never deadlock. False when the owner has no such result.
     */
    async requeue(
      resultId: string,
      ownerId: string,
      questionIndex: number,
      now: Date,
      by: string,
    ): Promise<'queued' | 'not-found' | 'not-tested'> {
      // The language the candidate chose (read before the transaction, which holds the one connection of an
      // embedded database): with the workspace on, that language's file is the answer.
      const [target] = await db
        .select({ attemptId: results.attemptId })
        .from(results)
        .where(and(eq(results.id, resultId), eq(results.ownerId, ownerId)));
      const chosen = target ? (await chosenLanguages.of(target.attemptId)).get(questionIndex) : undefined;
      return db.transaction(async (tx) => {
        const key = and(eq(testGradings.resultId, resultId), eq(testGradings.questionIndex, questionIndex));
        const [existing] = await tx.select().from(testGradings).where(key).for('update');
        const [owned] = await tx
          .select({
            attemptId: results.attemptId,
            grades: results.grades,
            files: results.workspaceFiles,
            snapshot: attempts.examSnapshot,
          })
          .from(results)
          .innerJoin(attempts, eq(attempts.id, results.attemptId))
          .where(and(eq(results.id, resultId), eq(results.ownerId, ownerId)));
        if (!owned) return 'not-found';
        const q = owned.snapshot.questions[questionIndex];
        if (!q || !isTestGraded(q)) return 'not-tested';
        const language = chosen && allowedLanguages(q).includes(chosen) ? chosen : undefined;
        const queued = { runId: null, state: 'queued' as const, tries: 0, nextAt: now, updatedAt: now };
        if (existing) await tx.update(testGradings).set(queued).where(key);
        else
          await tx.insert(testGradings).values({
            resultId,
            attemptId: owned.attemptId,
            questionIndex,
            code: codeToRun(owned.snapshot, q, owned.grades[questionIndex]?.answer, owned.files, language),
            files: candidateRepository(owned.snapshot, questionIndex, owned.files),
            createdAt: now,
            ...queued,
          });
        await writeTests(tx, resultId, questionIndex, QUEUED_TESTS, now, by);
        return 'queued';
      });
    },

    /** The outbox rows of a result (tests and the result view). */
    listOf(resultId: string) {
      return db.select().from(testGradings).where(eq(testGradings.resultId, resultId));
    },
  };
}
export type TestGradingRepository = ReturnType<typeof createTestGradingRepository>;
