import type { KeepGrade } from '@exam/domain/cohort';
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, examKeepGrades, overrides } from '../../db/schema.ts';

export type OverrideRow = typeof overrides.$inferSelect;

/**
 * Per-candidate accommodations, the attempts they bear on, and the exam's keepGrade as last read from
 * exam-service (docs/product.md#windows-attempts-and-accommodations).
 */
export function createCohortRepository({ db }: ResultsDatabase) {
  return {
    async findOverride(examId: string, candidateKey: string): Promise<OverrideRow | undefined> {
      const [row] = await db
        .select()
        .from(overrides)
        .where(and(eq(overrides.examId, examId), eq(overrides.candidateKey, candidateKey)));
      return row;
    },

    listOverrides(examId: string): Promise<OverrideRow[]> {
      return db.select().from(overrides).where(eq(overrides.examId, examId)).orderBy(asc(overrides.candidateKey));
    },

    async saveOverride(row: OverrideRow): Promise<OverrideRow> {
      const { examId: _e, candidateKey: _k, ...set } = row;
      const [saved] = await db
        .insert(overrides)
        .values(row)
        .onConflictDoUpdate({ target: [overrides.examId, overrides.candidateKey], set })
        .returning();
      if (!saved) throw new Error('override vanished on upsert');
      return saved;
    },

    /** The candidate's attempt in progress, with what its deadline is computed from. */
    async openAttemptOf(examId: string, candidateKey: string) {
      const [row] = await db
        .select({ id: attempts.id, startedAt: attempts.startedAt, snapshot: attempts.examSnapshot })
        .from(attempts)
        .where(and(eq(attempts.examId, examId), eq(attempts.candidateKey, candidateKey), isNull(attempts.submittedAt)))
        .orderBy(desc(attempts.attemptNo))
        .limit(1);
      return row;
    },

    /** Every attempt of the exam in progress, with what its deadline is computed from. */
    openAttemptsOfExam(examId: string) {
      return db
        .select({
          id: attempts.id,
          candidateKey: attempts.candidateKey,
          startedAt: attempts.startedAt,
          deadline: attempts.deadline,
          snapshot: attempts.examSnapshot,
        })
        .from(attempts)
        .where(and(eq(attempts.examId, examId), isNull(attempts.submittedAt)));
    },

    /** Moves the deadline of an attempt still in progress (a submitted one keeps its own). */
    async setDeadline(attemptId: string, deadline: Date | null): Promise<boolean> {
      const moved = await db
        .update(attempts)
        .set({ deadline })
        .where(and(eq(attempts.id, attemptId), isNull(attempts.submittedAt)))
        .returning({ id: attempts.id });
      return moved.length > 0;
    },

    /** How many attempts the candidate started, and whether one is in progress. */
    async attemptsOf(examId: string, candidateKey: string): Promise<{ used: number; inProgress: boolean }> {
      const [row] = await db
        .select({ used: count(), open: sql<number>`(count(*) filter (where ${attempts.submittedAt} is null))::int` })
        .from(attempts)
        .where(and(eq(attempts.examId, examId), eq(attempts.candidateKey, candidateKey)));
      return { used: row?.used ?? 0, inProgress: (row?.open ?? 0) > 0 };
    },

    /** Writes only when the rule changed, so a burst of starts of one exam does not rewrite the row. */
    async rememberKeepGrade(examId: string, keepGrade: KeepGrade, now: Date): Promise<void> {
      await db
        .insert(examKeepGrades)
        .values({ examId, keepGrade, updatedAt: now })
        .onConflictDoUpdate({
          target: examKeepGrades.examId,
          set: { keepGrade, updatedAt: now },
          setWhere: sql`${examKeepGrades.keepGrade} <> excluded.keep_grade`,
        });
    },
  };
}
export type CohortRepository = ReturnType<typeof createCohortRepository>;
