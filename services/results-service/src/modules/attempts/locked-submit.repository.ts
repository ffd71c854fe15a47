import { and, eq, isNull, lt } from 'drizzle-orm';
import { answers, attempts, followUps, results, testGradings } from '../../db/schema.ts';
import { parseSnapshot } from '../../scoring/snapshot.ts';
import {
  NEEDS_FILES,
  type AttemptRow,
  type ResultsDb,
  type SubmissionRow,
  type SubmissionCounts,
} from './attempt-rows.ts';

type BuildResult = (attempt: AttemptRow, saved: Map<number, string>) => SubmissionRow | typeof NEEDS_FILES;

/** The locking submit (a candidate's retry after a race, and the finalizer) and the finalizer's search. */
export function lockedSubmit(db: ResultsDb) {
  return {
    /**
     * Submits one attempt in a transaction: locks it (FOR UPDATE, or SKIP LOCKED for the finalizer),
     * returns the existing submission when there is one, otherwise lets `build` score the saved answers
     * and stores the result and the attempt's submission together. `build` may answer NEEDS_FILES
     * instead (nothing is written) so the caller can collect workspace files without holding the lock.
     */
    async submit(
      attemptId: string,
      opts: { skipLocked: boolean; build: BuildResult },
    ): Promise<(SubmissionCounts & { created: boolean }) | typeof NEEDS_FILES | undefined> {
      return db.transaction(async (tx) => {
        const locking = tx.select().from(attempts).where(eq(attempts.id, attemptId));
        const [attempt] = await (opts.skipLocked ? locking.for('update', { skipLocked: true }) : locking.for('update'));
        if (!attempt) return undefined;
        if (attempt.resultId) {
          const [existing] = await tx
            .select({ answered: results.answeredCount, total: results.totalQuestions })
            .from(results)
            .where(eq(results.id, attempt.resultId));
          return {
            resultId: attempt.resultId,
            answered: existing?.answered ?? 0,
            total: existing?.total ?? 0,
            // The follow-up was opened with the submission exactly when the snapshot has one.
            followUp: parseSnapshot(attempt.examSnapshot).followUp !== undefined,
            created: false,
          };
        }
        // A separate statement on purpose: under READ COMMITTED it takes a snapshot after the lock was
        // granted, so it sees every save that held the row lock before us. Reading the answers in
        // the locking statement would use the snapshot from before the wait and lose those saves.
        const pairs = await tx
          .select({ questionIndex: answers.questionIndex, answer: answers.answer })
          .from(answers)
          .where(eq(answers.attemptId, attemptId));
        const row = opts.build(attempt, new Map(pairs.map((p) => [p.questionIndex, p.answer])));
        if (row === NEEDS_FILES) return NEEDS_FILES;
        const { testGradings: outbox, followUp, ...result } = row;
        // Independent statements: postgres.js pipelines them on the transaction's connection.
        await Promise.all([
          tx.insert(results).values(result),
          ...(outbox.length
            ? [
                tx.insert(testGradings).values(
                  outbox.map((o) => ({
                    resultId: row.id,
                    attemptId,
                    questionIndex: o.questionIndex,
                    code: o.code,
                    files: o.files,
                    state: 'queued' as const,
                    nextAt: row.completedAt,
                    createdAt: row.createdAt ?? row.completedAt,
                    updatedAt: row.createdAt ?? row.completedAt,
                  })),
                ),
              ]
            : []),
          tx.update(attempts).set({ submittedAt: row.completedAt, resultId: row.id }).where(eq(attempts.id, attemptId)),
        ]);
        // After the result: follow_ups names it (modules/follow-up reads the result's owner through it).
        if (followUp)
          await tx.insert(followUps).values({
            attemptId,
            examId: row.examId,
            resultId: row.id,
            status: 'pending',
            ...followUp,
            createdAt: row.createdAt ?? row.completedAt,
          });
        return {
          resultId: row.id,
          answered: row.answeredCount,
          total: row.totalQuestions,
          followUp: followUp !== null,
          created: true,
        };
      });
    },

    /** Open attempts whose deadline is before the cutoff, oldest first. */
    async listExpired(cutoff: Date, limit: number): Promise<{ id: string }[]> {
      return db
        .select({ id: attempts.id })
        .from(attempts)
        .where(and(isNull(attempts.submittedAt), lt(attempts.deadline, cutoff)))
        .orderBy(attempts.deadline)
        .limit(limit);
    },
  };
}
