import { eq, sql } from 'drizzle-orm';
import type { GatewayDatabase } from '../../db/database.ts';
import { gradingUsage } from '../../db/schema.ts';

/** What one exam's suggestions have spent: provider calls and tokens (prompt and reply, every sample). */
export type GradingSpend = { calls: number; inputTokens: number; outputTokens: number };

const NOTHING_SPENT: GradingSpend = { calls: 0, inputTokens: 0, outputTokens: 0 };

/** The grading_usage table (db/schema.ts): one row per exam, added to atomically so every replica sees one total. */
export function createGradingUsageRepository(database: GatewayDatabase) {
  const { db } = database;
  return {
    async findSpend(examId: string): Promise<GradingSpend> {
      const [row] = await db
        .select({
          calls: gradingUsage.calls,
          inputTokens: gradingUsage.inputTokens,
          outputTokens: gradingUsage.outputTokens,
        })
        .from(gradingUsage)
        .where(eq(gradingUsage.examId, examId));
      return row ?? NOTHING_SPENT;
    },

    /**
     * Adds one suggestion's calls and tokens in a single statement (insert … on conflict do update set x = x +
     * excluded.x): two suggestions finishing at once on two replicas both count, neither overwrites the other.
     */
    async addSpend(examId: string, spend: GradingSpend, now: Date): Promise<void> {
      await db
        .insert(gradingUsage)
        .values({ examId, ...spend, updatedAt: now })
        .onConflictDoUpdate({
          target: gradingUsage.examId,
          set: {
            calls: sql`${gradingUsage.calls} + excluded.calls`,
            inputTokens: sql`${gradingUsage.inputTokens} + excluded.input_tokens`,
            outputTokens: sql`${gradingUsage.outputTokens} + excluded.output_tokens`,
            updatedAt: sql`excluded.updated_at`,
          },
        });
    },
  };
}
export type GradingUsageRepository = ReturnType<typeof createGradingUsageRepository>;
