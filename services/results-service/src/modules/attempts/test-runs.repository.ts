import { and, eq } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { events, testRuns } from '../../db/schema.ts';

/** The candidate's own "Run tests" runs (test_runs), and the proctoring event each leaves. */
export function createTestRunsRepository({ db }: ResultsDatabase) {
  return {
    /** Remembers the run as the attempt's, with a `tests-run` event in the attempt's timeline. */
    async record(run: { runId: string; attemptId: string; questionIndex: number; now: Date }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(testRuns).values({
          runId: run.runId,
          attemptId: run.attemptId,
          questionIndex: run.questionIndex,
          createdAt: run.now,
        });
        await tx.insert(events).values({
          attemptId: run.attemptId,
          type: 'tests-run',
          questionIndex: run.questionIndex,
          detail: run.runId,
          clientAt: null,
          recordedAt: run.now,
        });
      });
    },

    /** Whether the run is one of this attempt's. */
    async belongsTo(runId: string, attemptId: string): Promise<boolean> {
      const [row] = await db
        .select({ runId: testRuns.runId })
        .from(testRuns)
        .where(and(eq(testRuns.runId, runId), eq(testRuns.attemptId, attemptId)))
        .limit(1);
      return row !== undefined;
    },
  };
}
export type TestRunsRepository = ReturnType<typeof createTestRunsRepository>;
