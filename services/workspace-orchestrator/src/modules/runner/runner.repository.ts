import { and, asc, count, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { WorkspaceDatabase } from '../../db/database.ts';
import { codeRuns, type CodeRunRow, type RunOutcome } from '../../db/schema.ts';

export type NewRun = Pick<
  CodeRunRow,
  'id' | 'purpose' | 'creatorId' | 'attemptId' | 'examId' | 'questionIndex' | 'language' | 'job'
>;

/**
 * Room for new runs in one claim: `total` of any class, of which `nonCandidate` for grading and reference runs
 * together, of which `reference` for creators' reference runs.
 */
export type ClaimRooms = { total: number; nonCandidate: number; reference: number };

/** Candidates wait on their own runs; grading waits on nobody; creators' reference runs come last. */
const CLAIM_ORDER = ['check', 'grade', 'reference'] as const;

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
     * A creator's reference run, unless they queued `perMinute` of them in the last minute or have `inFlight`
     * queued or running (answered as which limit refused it). The counts and the insert run under a per-creator
     * advisory lock, so two requests at once cannot both take the last slot.
     */
    async insertRateLimited(
      run: NewRun,
      now: Date,
      limits: { perMinute: number; inFlight: number },
    ): Promise<CodeRunRow | 'per-minute' | 'in-flight'> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`runner:${run.creatorId}`}))`);
        const since = new Date(now.getTime() - 60_000);
        const own = eq(codeRuns.creatorId, run.creatorId ?? '');
        const [recent] = await tx
          .select({ n: count() })
          .from(codeRuns)
          .where(and(own, gt(codeRuns.queuedAt, since)));
        if ((recent?.n ?? 0) >= limits.perMinute) return 'per-minute';
        const [open] = await tx
          .select({ n: count() })
          .from(codeRuns)
          .where(and(own, inArray(codeRuns.state, ['queued', 'running'])));
        if ((open?.n ?? 0) >= limits.inFlight) return 'in-flight';
        const [row] = await tx
          .insert(codeRuns)
          .values({ ...run, state: 'queued', queuedAt: now })
          .returning();
        return row!;
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
     * Claims queued runs for `leaseMs`, oldest first within each class and the classes in the order of
     * CLAIM_ORDER: candidates' own runs first, then grading, then creators' reference runs, each class within its
     * room (`rooms`: a number is the same room for all). With `global`, no more than `cap` runs hold a live lease
     * across all replicas, and runs other than candidates' leave `candidateSlots` of them free: the claims are
     * serialised by an advisory lock and count the running rows first. SKIP LOCKED keeps replicas from waiting on
     * each other's rows.
     */
    async claim(
      now: Date,
      rooms: number | ClaimRooms,
      leaseFor: (row: CodeRunRow) => Date,
      global?: number | { cap: number; candidateSlots: number },
    ) {
      const given = typeof rooms === 'number' ? { total: rooms, nonCandidate: rooms, reference: rooms } : rooms;
      let { total, nonCandidate } = given;
      if (total <= 0) return [];
      return db.transaction(async (tx) => {
        if (global !== undefined) {
          const { cap, candidateSlots } = typeof global === 'number' ? { cap: global, candidateSlots: 0 } : global;
          await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
          const running = await tx
            .select({ purpose: codeRuns.purpose, n: count() })
            .from(codeRuns)
            .where(and(eq(codeRuns.state, 'running'), gt(codeRuns.leaseUntil, now)))
            .groupBy(codeRuns.purpose);
          const all = running.reduce((n, r) => n + r.n, 0);
          const others = running.reduce((n, r) => n + (r.purpose === 'check' ? 0 : r.n), 0);
          total = Math.min(total, cap - all);
          nonCandidate = Math.min(nonCandidate, cap - candidateSlots - others);
          if (total <= 0) return [];
        }
        const claimed: CodeRunRow[] = [];
        for (const purpose of CLAIM_ORDER) {
          const room =
            purpose === 'check'
              ? total
              : Math.min(total, nonCandidate, purpose === 'reference' ? given.reference : Infinity);
          if (room <= 0) continue;
          const due = await tx
            .select()
            .from(codeRuns)
            .where(and(eq(codeRuns.state, 'queued'), eq(codeRuns.purpose, purpose)))
            .orderBy(asc(codeRuns.queuedAt))
            .limit(room)
            .for('update', { skipLocked: true });
          for (const row of due) {
            const [updated] = await tx
              .update(codeRuns)
              .set({ state: 'running', claims: row.claims + 1, leaseUntil: leaseFor(row), startedAt: now })
              .where(eq(codeRuns.id, row.id))
              .returning();
            if (!updated) continue;
            claimed.push(updated);
            total--;
            if (purpose !== 'check') nonCandidate--;
          }
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
