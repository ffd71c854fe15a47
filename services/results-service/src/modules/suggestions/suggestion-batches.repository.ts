import type { SuggestionBatch, SuggestionBatchStatus } from '@exam/domain/question-grading';
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import { gradingSuggestions, suggestionBatches } from '../../db/schema.ts';

export type BatchRow = typeof suggestionBatches.$inferSelect;
export type NewBatch = Omit<
  typeof suggestionBatches.$inferInsert,
  'progressDone' | 'progressFailed' | 'cancelRequested' | 'error' | 'leaseOwner' | 'leaseUntil' | 'finishedAt'
>;

export function toBatch(row: BatchRow): SuggestionBatch {
  return {
    id: row.id,
    examId: row.examId,
    questionIndex: row.questionIndex,
    status: row.status as SuggestionBatchStatus,
    concurrency: row.concurrency,
    samples: row.samples,
    progress: { done: row.progressDone, failed: row.progressFailed, total: row.resultIds.length },
    cancelRequested: row.cancelRequested,
    error: row.error,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The runner's view of its batch after a write: whether a cancel was asked, or the lease is no longer its own. */
export type LeaseState = { kind: 'held'; cancelRequested: boolean } | { kind: 'lost' };

/**
 * suggestion_batches: a batch's answers, progress, cancel flag and lease, so any replica reads, stops and takes
 * over a batch. Every write of a runner is guarded by its lease (lease_owner) and the running status.
 */
export function createSuggestionBatchesRepository({ db }: ResultsDatabase) {
  const held = (id: string, leaseOwner: string) =>
    and(
      eq(suggestionBatches.id, id),
      eq(suggestionBatches.leaseOwner, leaseOwner),
      eq(suggestionBatches.status, 'running'),
    );
  const ofQuestion = (examId: string, questionIndex: number) =>
    and(eq(suggestionBatches.examId, examId), eq(suggestionBatches.questionIndex, questionIndex));
  const leaseState = (rows: Array<{ cancelRequested: boolean }>): LeaseState =>
    rows[0] ? { kind: 'held', cancelRequested: rows[0].cancelRequested } : { kind: 'lost' };

  return {
    /**
     * Inserts a batch: running (no lease yet, so the next pass of any replica claims it), or already completed when
     * it has nothing to do. Undefined when the question already has a running batch (the partial unique index).
     */
    async insert(batch: NewBatch & { status: 'running' | 'completed'; finishedAt: Date | null }) {
      const rows = await db.insert(suggestionBatches).values(batch).onConflictDoNothing().returning();
      return rows[0];
    },

    async findLatest(examId: string, questionIndex: number): Promise<BatchRow | undefined> {
      const rows = await db
        .select()
        .from(suggestionBatches)
        .where(ofQuestion(examId, questionIndex))
        .orderBy(desc(suggestionBatches.startedAt), desc(suggestionBatches.id))
        .limit(1);
      return rows[0];
    },

    async findById(examId: string, questionIndex: number, id: string): Promise<BatchRow | undefined> {
      const rows = await db
        .select()
        .from(suggestionBatches)
        .where(and(ofQuestion(examId, questionIndex), eq(suggestionBatches.id, id)));
      return rows[0];
    },

    /**
     * Sets the cancel flag of a running batch; its runner sees it within a heartbeat. A batch no replica holds (its
     * lease lapsed, e.g. while llm-gateway was down) has no runner to see it, so it is cancelled here and then.
     * Undefined when the batch is not running.
     */
    async requestCancel(examId: string, questionIndex: number, id: string, now: Date) {
      const unheld = or(isNull(suggestionBatches.leaseUntil), lt(suggestionBatches.leaseUntil, now));
      const rows = await db
        .update(suggestionBatches)
        .set({
          cancelRequested: true,
          status: sql`case when ${unheld} then 'cancelled' else ${suggestionBatches.status} end`,
          finishedAt: sql`case when ${unheld} then ${now.toISOString()}::timestamptz else ${suggestionBatches.finishedAt} end`,
        })
        .where(
          and(ofQuestion(examId, questionIndex), eq(suggestionBatches.id, id), eq(suggestionBatches.status, 'running')),
        )
        .returning();
      return rows[0];
    },

    /**
     * Claims the oldest running batch no replica holds (never leased, or its lease lapsed): one autocommit statement,
     * FOR UPDATE SKIP LOCKED, so two replicas claiming at once take different batches. The claim recounts `done` as
     * the answers this batch has suggested (a runner that died may have stored a suggestion it did not count) and
     * clears `failed`: the answers that failed have no suggestion and are asked again.
     */
    async claimNext(leaseOwner: string, now: Date, leaseMs: number): Promise<BatchRow | undefined> {
      const until = new Date(now.getTime() + leaseMs);
      const [claimed] = await queryRows<{ id: string }>(
        db,
        sql`
          update results_service.suggestion_batches b set
            lease_owner = ${leaseOwner},
            lease_until = ${until.toISOString()}::timestamptz,
            progress_failed = 0,
            progress_done = (select count(distinct s.result_id)::int from results_service.grading_suggestions s
              where s.batch_id = b.id)
          where b.id = (
            select id from results_service.suggestion_batches
            where status = 'running' and (lease_until is null or lease_until < ${now.toISOString()}::timestamptz)
            order by started_at, id
            limit 1
            for update skip locked
          )
          returning b.id`,
      );
      if (!claimed) return undefined;
      const rows = await db.select().from(suggestionBatches).where(eq(suggestionBatches.id, claimed.id));
      return rows[0];
    },

    /** The results this batch has already suggested (its own rows): they are never asked again. */
    async suggestedBy(batchId: string): Promise<Set<string>> {
      const rows = await db
        .selectDistinct({ resultId: gradingSuggestions.resultId })
        .from(gradingSuggestions)
        .where(eq(gradingSuggestions.batchId, batchId));
      return new Set(rows.map((r) => r.resultId));
    },

    async renewLease(id: string, leaseOwner: string, until: Date): Promise<LeaseState> {
      const rows = await db
        .update(suggestionBatches)
        .set({ leaseUntil: until })
        .where(held(id, leaseOwner))
        .returning({ cancelRequested: suggestionBatches.cancelRequested });
      return leaseState(rows);
    },

    /** Adds to the batch's counts (an answer found suggested elsewhere, or one that failed). */
    async count(id: string, leaseOwner: string, step: { done?: number; failed?: number }): Promise<LeaseState> {
      const rows = await db
        .update(suggestionBatches)
        .set({
          progressDone: sql`${suggestionBatches.progressDone} + ${step.done ?? 0}`,
          progressFailed: sql`${suggestionBatches.progressFailed} + ${step.failed ?? 0}`,
        })
        .where(held(id, leaseOwner))
        .returning({ cancelRequested: suggestionBatches.cancelRequested });
      return leaseState(rows);
    },

    /** Says why a running batch waits (llm-gateway unreachable), leaving it running for the next claim. */
    async noteWaiting(id: string, leaseOwner: string, error: string): Promise<void> {
      await db.update(suggestionBatches).set({ error }).where(held(id, leaseOwner));
    },

    /** Gives the lease up at once (this replica shuts down): the next pass of another replica takes the batch. */
    async release(id: string, leaseOwner: string, now: Date): Promise<void> {
      await db.update(suggestionBatches).set({ leaseUntil: now }).where(held(id, leaseOwner));
    },

    async finish(
      id: string,
      leaseOwner: string,
      end: { status: Exclude<SuggestionBatchStatus, 'running'>; error: string | null },
      now: Date,
    ): Promise<void> {
      await db
        .update(suggestionBatches)
        .set({ ...end, finishedAt: now })
        .where(held(id, leaseOwner));
    },
  };
}
export type SuggestionBatchesRepository = ReturnType<typeof createSuggestionBatchesRepository>;
