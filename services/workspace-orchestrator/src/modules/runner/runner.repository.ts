import { and, asc, count, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { WorkspaceDatabase } from '../../db/database.ts';
import { codeRuns, type CodeRunRow, type RunOutcome } from '../../db/schema.ts';

export type NewRun = Pick<
  CodeRunRow,
  'id' | 'purpose' | 'creatorId' | 'attemptId' | 'examId' | 'questionIndex' | 'language' | 'job'
>;

/** Serialises the claims of every replica, so the global cap is counted and taken in one step. */
const CLAIM_LOCK = 7_311_013;

/** The run queue's queries (code_runs). */
export function createRunnerRepository({ db }: Pick<WorkspaceDatabase, 'db'>) {
  return {
    async insert(run: NewRun, now: Date): Promise<CodeRunRow> {
      const [row] = await db
        .insert(codeRuns)
        .values({ ...run, state: 'queued', queuedAt: now })
        .returning();
      return row!;
    },

    /**
     * A creator's reference run, unless they queued `perMinute` of them in the last minute. The count and
     * the insert run under a per-creator advisory lock, so two requests at once cannot both take the last slot.
     */
    async insertRateLimited(run: NewRun, now: Date, perMinute: number): Promise<CodeRunRow | undefined> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`runner:${run.creatorId}`}))`);
        const since = new Date(now.getTime() - 60_000);
        const [recent] = await tx
          .select({ n: count() })
          .from(codeRuns)
          .where(and(eq(codeRuns.creatorId, run.creatorId ?? ''), gt(codeRuns.queuedAt, since)));
        if ((recent?.n ?? 0) >= perMinute) return undefined;
        const [row] = await tx
          .insert(codeRuns)
          .values({ ...run, state: 'queued', queuedAt: now })
          .returning();
        return row;
      });
    },

    async find(id: string): Promise<CodeRunRow | undefined> {
      const [row] = await db.select().from(codeRuns).where(eq(codeRuns.id, id));
      return row;
    },

    async findMany(ids: string[]): Promise<CodeRunRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(codeRuns).where(inArray(codeRuns.id, ids));
    },

    /**
     * Claims up to `limit` queued runs, oldest first, for `leaseMs`. With `globalCap`, no more than that many
     * runs hold a live lease across all replicas: the claims are serialised by an advisory lock and count
     * the running rows first. SKIP LOCKED keeps replicas from waiting on each other's rows.
     */
    async claim(now: Date, limit: number, leaseFor: (row: CodeRunRow) => Date, globalCap?: number) {
      if (limit <= 0) return [];
      return db.transaction(async (tx) => {
        let room = limit;
        if (globalCap !== undefined) {
          await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
          const [running] = await tx
            .select({ n: count() })
            .from(codeRuns)
            .where(and(eq(codeRuns.state, 'running'), gt(codeRuns.leaseUntil, now)));
          room = Math.min(limit, globalCap - (running?.n ?? 0));
          if (room <= 0) return [];
        }
        const due = await tx
          .select()
          .from(codeRuns)
          .where(eq(codeRuns.state, 'queued'))
          .orderBy(asc(codeRuns.queuedAt))
          .limit(room)
          .for('update', { skipLocked: true });
        const claimed: CodeRunRow[] = [];
        for (const row of due) {
          const [updated] = await tx
            .update(codeRuns)
            .set({ state: 'running', claims: row.claims + 1, leaseUntil: leaseFor(row), startedAt: now })
            .where(eq(codeRuns.id, row.id))
            .returning();
          if (updated) claimed.push(updated);
        }
        return claimed;
      });
    },

    async finish(id: string, state: 'done' | 'unavailable' | 'error', outcome: RunOutcome, now: Date) {
      await db
        .update(codeRuns)
        .set({ state, outcome, finishedAt: now, leaseUntil: null })
        .where(and(eq(codeRuns.id, id), eq(codeRuns.state, 'running')));
    },

    /** A run that failed on the runner's side goes back to the queue for another try. */
    async requeue(id: string): Promise<void> {
      await db
        .update(codeRuns)
        .set({ state: 'queued', leaseUntil: null })
        .where(and(eq(codeRuns.id, id), eq(codeRuns.state, 'running')));
    },

    /**
     * Runs whose lease ran out (the replica running them died): queued again, or given up in `error` after
     * `maxClaims` claims.
     */
    async recoverExpired(now: Date, maxClaims: number): Promise<number> {
      const expired = and(eq(codeRuns.state, 'running'), lt(codeRuns.leaseUntil, now));
      const failed = await db
        .update(codeRuns)
        .set({
          state: 'error',
          finishedAt: now,
          leaseUntil: null,
          outcome: { verdicts: [], reason: 'The runner stopped while running this code, twice.' },
        })
        .where(and(expired, sql`${codeRuns.claims} >= ${maxClaims}`))
        .returning({ id: codeRuns.id });
      const requeued = await db
        .update(codeRuns)
        .set({ state: 'queued', leaseUntil: null })
        .where(expired)
        .returning({ id: codeRuns.id });
      return failed.length + requeued.length;
    },

    /** Deletes finished runs older than `before`; queued and running ones stay whatever their age. */
    async prune(before: Date): Promise<number> {
      const gone = await db
        .delete(codeRuns)
        .where(and(inArray(codeRuns.state, ['done', 'unavailable', 'error']), lt(codeRuns.finishedAt, before)))
        .returning({ id: codeRuns.id });
      return gone.length;
    },
  };
}

export type RunnerRepository = ReturnType<typeof createRunnerRepository>;
