import { and, desc, eq, lt } from 'drizzle-orm';
import type { AuditConfiguration } from '@exam/domain/assistant-audit';
import type { SolvabilityCheck, SolvabilityItem, SolvabilityStatus } from '@exam/domain/solvability';
import type { GatewayDatabase } from '../../db/database.ts';
import { solvabilityChecks } from '../../db/schema.ts';

type Row = typeof solvabilityChecks.$inferSelect;

export const INTERRUPTED_MESSAGE = 'The replica running the check stopped before it finished.';

export function toCheck(row: Row): SolvabilityCheck {
  return {
    id: row.id,
    examId: row.examId,
    status: row.status as SolvabilityStatus,
    examVersion: row.examVersion,
    configurations: row.configurations,
    phrasingsPerQuestion: row.phrasingsPerQuestion,
    budget: { maxCalls: row.maxCalls, maxTokens: row.maxTokens },
    used: { calls: row.callsUsed, tokens: row.tokensUsed },
    progress: { done: row.progressDone, total: row.progressTotal },
    cancelRequested: row.cancelRequested,
    error: row.error,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    items: row.items as SolvabilityItem[],
  };
}

export type NewCheck = {
  id: string;
  examId: string;
  ownerId: string;
  phrasingsPerQuestion: number;
  /** The exam version checked and the configurations asked; the columns' defaults ('' and []) without them. */
  examVersion?: string;
  configurations?: AuditConfiguration[];
  maxCalls: number;
  maxTokens: number;
  progressTotal: number;
  items: SolvabilityItem[];
  leaseOwner: string;
  leaseExpiresAt: Date;
  startedAt: Date;
};

/** What the runner writes after each provider call. */
export type Progress = { callsUsed: number; tokensUsed: number; progressDone: number; items: SolvabilityItem[] };

/** The runner's view of its row after a write: whether the creator asked to stop, or the lease is lost. */
export type LeaseState = { kind: 'held'; cancelRequested: boolean } | { kind: 'lost' };

export function createSolvabilityRepository(database: GatewayDatabase) {
  const db = database.db;
  /** Only the run holding the lease writes, and only while the row is running. */
  const held = (id: string, leaseOwner: string) =>
    and(
      eq(solvabilityChecks.id, id),
      eq(solvabilityChecks.leaseOwner, leaseOwner),
      eq(solvabilityChecks.status, 'running'),
    );
  const leaseState = (rows: Array<{ cancelRequested: boolean }>): LeaseState =>
    rows[0] ? { kind: 'held', cancelRequested: rows[0].cancelRequested } : { kind: 'lost' };

  return {
    /** Inserts a running check; undefined when the exam already has one running (the partial unique index). */
    async insertRunning(check: NewCheck): Promise<SolvabilityCheck | undefined> {
      const rows = await db
        .insert(solvabilityChecks)
        .values({ ...check, status: 'running' })
        .onConflictDoNothing()
        .returning();
      return rows[0] ? toCheck(rows[0]) : undefined;
    },

    /** Running checks of the exam whose lease ran out (their replica died) become interrupted. */
    async interruptLapsed(examId: string, now: Date): Promise<void> {
      await db
        .update(solvabilityChecks)
        .set({ status: 'interrupted', error: INTERRUPTED_MESSAGE, finishedAt: now })
        .where(
          and(
            eq(solvabilityChecks.examId, examId),
            eq(solvabilityChecks.status, 'running'),
            lt(solvabilityChecks.leaseExpiresAt, now),
          ),
        );
    },

    async findLatest(examId: string): Promise<SolvabilityCheck | undefined> {
      const rows = await db
        .select()
        .from(solvabilityChecks)
        .where(eq(solvabilityChecks.examId, examId))
        .orderBy(desc(solvabilityChecks.startedAt))
        .limit(1);
      return rows[0] ? toCheck(rows[0]) : undefined;
    },

    async findById(examId: string, id: string): Promise<SolvabilityCheck | undefined> {
      const rows = await db
        .select()
        .from(solvabilityChecks)
        .where(and(eq(solvabilityChecks.id, id), eq(solvabilityChecks.examId, examId)));
      return rows[0] ? toCheck(rows[0]) : undefined;
    },

    /** Sets the cancel flag of a running check; undefined when it is not running (any more). */
    async requestCancel(examId: string, id: string): Promise<SolvabilityCheck | undefined> {
      const rows = await db
        .update(solvabilityChecks)
        .set({ cancelRequested: true })
        .where(
          and(
            eq(solvabilityChecks.id, id),
            eq(solvabilityChecks.examId, examId),
            eq(solvabilityChecks.status, 'running'),
          ),
        )
        .returning();
      return rows[0] ? toCheck(rows[0]) : undefined;
    },

    async renewLease(id: string, leaseOwner: string, until: Date): Promise<LeaseState> {
      const rows = await db
        .update(solvabilityChecks)
        .set({ leaseExpiresAt: until })
        .where(held(id, leaseOwner))
        .returning({ cancelRequested: solvabilityChecks.cancelRequested });
      return leaseState(rows);
    },

    async saveProgress(id: string, leaseOwner: string, progress: Progress, until: Date): Promise<LeaseState> {
      const rows = await db
        .update(solvabilityChecks)
        .set({ ...progress, leaseExpiresAt: until })
        .where(held(id, leaseOwner))
        .returning({ cancelRequested: solvabilityChecks.cancelRequested });
      return leaseState(rows);
    },

    async finish(
      id: string,
      leaseOwner: string,
      end: Progress & { status: Exclude<SolvabilityStatus, 'running'>; error: string | null },
      now: Date,
    ): Promise<void> {
      await db
        .update(solvabilityChecks)
        .set({ ...end, finishedAt: now })
        .where(held(id, leaseOwner));
    },
  };
}
export type SolvabilityRepository = ReturnType<typeof createSolvabilityRepository>;
