import { and, eq } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, results } from '../../db/schema.ts';

/** The attempt and result a receipt is about. */
export function createReceiptsRepository({ db }: ResultsDatabase) {
  return {
    /** The attempt with its result once submitted (result columns null before). */
    async findAttempt(attemptId: string) {
      const [row] = await db
        .select({
          attemptId: attempts.id,
          examId: attempts.examId,
          submittedAt: attempts.submittedAt,
          resultId: results.id,
          process: results.process,
        })
        .from(attempts)
        .leftJoin(results, eq(results.attemptId, attempts.id))
        .where(eq(attempts.id, attemptId))
        .limit(1);
      return row;
    },

    /** The result, only for the creator who owns it. */
    async findOwnedResult(resultId: string, ownerId: string) {
      const [row] = await db
        .select({ resultId: results.id, attemptId: results.attemptId, process: results.process })
        .from(results)
        .where(and(eq(results.id, resultId), eq(results.ownerId, ownerId)))
        .limit(1);
      return row;
    },
  };
}
export type ReceiptsRepository = ReturnType<typeof createReceiptsRepository>;
