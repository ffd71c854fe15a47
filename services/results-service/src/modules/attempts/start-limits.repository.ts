import { and, eq, lt, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { startCounters } from '../../db/schema.ts';

/** Fixed-window start counters shared by every replica (start_counters). */
export function createStartLimitsRepository({ db }: ResultsDatabase) {
  return {
    /** Counts one start in the bucket's window and returns the window's count so far; drops its older windows. */
    async count(bucket: string, windowStart: Date): Promise<number> {
      await db
        .delete(startCounters)
        .where(and(eq(startCounters.bucket, bucket), lt(startCounters.windowStart, windowStart)));
      const [row] = await db
        .insert(startCounters)
        .values({ bucket, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: [startCounters.bucket, startCounters.windowStart],
          set: { count: sql`${startCounters.count} + 1` },
        })
        .returning({ count: startCounters.count });
      return row?.count ?? 1;
    },

    async peek(bucket: string, windowStart: Date): Promise<number> {
      const [row] = await db
        .select({ count: startCounters.count })
        .from(startCounters)
        .where(and(eq(startCounters.bucket, bucket), eq(startCounters.windowStart, windowStart)));
      return row?.count ?? 0;
    },

    /** Deletes windows that ended before `before` (buckets that were never counted again). */
    async prune(before: Date): Promise<void> {
      await db.delete(startCounters).where(lt(startCounters.windowStart, before));
    },
  };
}
export type StartLimitsRepository = ReturnType<typeof createStartLimitsRepository>;
