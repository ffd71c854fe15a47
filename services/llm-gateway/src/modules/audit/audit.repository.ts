import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type {
  AssistantAudit,
  AuditConfiguration,
  AuditEstimate,
  AuditForm,
  AuditItem,
  AuditStatus,
} from '@exam/domain/assistant-audit';
import type { GatewayDatabase } from '../../db/database.ts';
import { assistantAudits, auditAttempts } from '../../db/schema.ts';
import { formSummary, type AttemptRecord, type FormTally } from './audit-report.ts';

type Row = typeof assistantAudits.$inferSelect;

export type NewAudit = {
  id: string;
  examId: string;
  ownerId: string;
  examVersion: string;
  batteryVersion: string;
  configurations: AuditConfiguration[];
  concurrency: number;
  maxTokens: number;
  estimate: AuditEstimate;
  progressTotal: number;
  items: AuditItem[];
  leaseOwner: string;
  leaseExpiresAt: Date;
  startedAt: Date;
};

/** What the runner writes after each attempt, recomputed from every attempt recorded. */
export type AuditProgress = { callsUsed: number; tokensUsed: number; progressDone: number; items: AuditItem[] };

/** The runner's view of its row after a write: whether the creator asked to stop, or the lease is lost. */
export type LeaseState = { kind: 'held'; cancelRequested: boolean } | { kind: 'lost' };

/** A running audit as the runner needs it to go on (a start, or a resume pass's claim). */
export type ClaimedAudit = Pick<
  Row,
  'id' | 'examId' | 'examVersion' | 'configurations' | 'concurrency' | 'maxTokens' | 'tokensUsed' | 'cancelRequested'
>;

function toAudit(row: Row, tallies: FormTally[]): AssistantAudit {
  return {
    id: row.id,
    examId: row.examId,
    examVersion: row.examVersion,
    batteryVersion: row.batteryVersion,
    status: row.status as AuditStatus,
    configurations: row.configurations,
    concurrency: row.concurrency,
    budget: { maxTokens: row.maxTokens },
    estimate: row.estimate,
    used: { calls: row.callsUsed, tokens: row.tokensUsed },
    progress: { done: row.progressDone, total: row.progressTotal },
    cancelRequested: row.cancelRequested,
    resumed: row.resumed,
    error: row.error,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    items: row.items,
    summary: formSummary(tallies),
  };
}

export function createAuditRepository(database: GatewayDatabase) {
  const db = database.db;
  /** Only the run holding the lease writes, and only while the row is running. */
  const held = (id: string, leaseOwner: string) =>
    and(eq(assistantAudits.id, id), eq(assistantAudits.leaseOwner, leaseOwner), eq(assistantAudits.status, 'running'));
  const leaseState = (rows: Array<{ cancelRequested: boolean }>): LeaseState =>
    rows[0] ? { kind: 'held', cancelRequested: rows[0].cancelRequested } : { kind: 'lost' };

  /** Per configuration, form and item: answered at least once, leaked past the guard, leaked raw. */
  async function talliesOf(auditId: string): Promise<FormTally[]> {
    const rows = await db
      .select({
        configuration: auditAttempts.configuration,
        form: auditAttempts.form,
        questionIndex: auditAttempts.questionIndex,
        answered: sql<boolean>`bool_or(${auditAttempts.status} = 'done')`,
        guardedLeaked: sql<boolean>`bool_or(${auditAttempts.status} = 'done' and ${auditAttempts.guardedLeaked})`,
        rawLeaked: sql<boolean>`bool_or(${auditAttempts.status} = 'done' and ${auditAttempts.rawLeaked})`,
      })
      .from(auditAttempts)
      .where(eq(auditAttempts.auditId, auditId))
      .groupBy(auditAttempts.configuration, auditAttempts.form, auditAttempts.questionIndex);
    return rows.map((r) => ({ ...r, form: r.form as AuditForm }));
  }
  const withSummary = async (row: Row | undefined) => (row ? toAudit(row, await talliesOf(row.id)) : undefined);

  return {
    /** Inserts a running audit; undefined when the exam already has one running (the partial unique index). */
    async insertRunning(audit: NewAudit): Promise<AssistantAudit | undefined> {
      const rows = await db
        .insert(assistantAudits)
        .values({ ...audit, status: 'running' })
        .onConflictDoNothing()
        .returning();
      return withSummary(rows[0]);
    },

    async findLatest(examId: string): Promise<AssistantAudit | undefined> {
      const rows = await db
        .select()
        .from(assistantAudits)
        .where(eq(assistantAudits.examId, examId))
        .orderBy(desc(assistantAudits.startedAt))
        .limit(1);
      return withSummary(rows[0]);
    },

    async findById(examId: string, id: string): Promise<AssistantAudit | undefined> {
      const rows = await db
        .select()
        .from(assistantAudits)
        .where(and(eq(assistantAudits.id, id), eq(assistantAudits.examId, examId)));
      return withSummary(rows[0]);
    },

    /**
     * Sets the cancel flag of a running audit; undefined when it is not running (any more). One whose lease lapsed
     * (no replica is running it) ends as cancelled at once rather than waiting for a resume pass to see the flag.
     */
    async requestCancel(examId: string, id: string, now: Date): Promise<AssistantAudit | undefined> {
      const lapsed = lt(assistantAudits.leaseExpiresAt, now);
      const rows = await db
        .update(assistantAudits)
        .set({
          cancelRequested: true,
          status: sql`case when ${lapsed} then 'cancelled' else ${assistantAudits.status} end`,
          finishedAt: sql`case when ${lapsed} then ${now.toISOString()}::timestamptz else ${assistantAudits.finishedAt} end`,
        })
        .where(
          and(eq(assistantAudits.id, id), eq(assistantAudits.examId, examId), eq(assistantAudits.status, 'running')),
        )
        .returning();
      return withSummary(rows[0]);
    },

    /**
     * Claims one running audit whose lease lapsed for `leaseOwner`, counting the resume. The lapsed condition is on
     * the update itself, so of two replicas claiming at once the second finds the lease renewed and claims nothing.
     */
    async claimLapsed(now: Date, leaseOwner: string, until: Date): Promise<ClaimedAudit | undefined> {
      const lapsed = and(eq(assistantAudits.status, 'running'), lt(assistantAudits.leaseExpiresAt, now));
      const oldest = db
        .select({ id: assistantAudits.id })
        .from(assistantAudits)
        .where(lapsed)
        .orderBy(assistantAudits.leaseExpiresAt)
        .limit(1);
      const rows = await db
        .update(assistantAudits)
        .set({ leaseOwner, leaseExpiresAt: until, resumed: sql`${assistantAudits.resumed} + 1` })
        .where(and(lapsed, sql`${assistantAudits.id} in (${oldest})`))
        .returning();
      return rows[0];
    },

    async renewLease(id: string, leaseOwner: string, until: Date): Promise<LeaseState> {
      const rows = await db
        .update(assistantAudits)
        .set({ leaseExpiresAt: until })
        .where(held(id, leaseOwner))
        .returning({ cancelRequested: assistantAudits.cancelRequested });
      return leaseState(rows);
    },

    /** Lets the lease lapse now, so the next resume pass of any replica goes on with the run. */
    async releaseLease(id: string, leaseOwner: string, now: Date): Promise<void> {
      await db.update(assistantAudits).set({ leaseExpiresAt: now }).where(held(id, leaseOwner));
    },

    async saveProgress(id: string, leaseOwner: string, progress: AuditProgress, until: Date): Promise<LeaseState> {
      const rows = await db
        .update(assistantAudits)
        .set({ ...progress, leaseExpiresAt: until })
        .where(held(id, leaseOwner))
        .returning({ cancelRequested: assistantAudits.cancelRequested });
      return leaseState(rows);
    },

    async finish(
      id: string,
      leaseOwner: string,
      end: Partial<AuditProgress> & { status: Exclude<AuditStatus, 'running'>; error: string | null },
      now: Date,
    ): Promise<void> {
      await db
        .update(assistantAudits)
        .set({ ...end, finishedAt: now })
        .where(held(id, leaseOwner));
    },

    /** Every attempt recorded for the audit: what a resumed run skips and counts. */
    async listAttempts(auditId: string): Promise<AttemptRecord[]> {
      const rows = await db.select().from(auditAttempts).where(eq(auditAttempts.auditId, auditId));
      return rows.map(toRecord);
    },

    /**
     * Records a finished attempt once: a second insert of the same attempt (two replicas after a lapsed lease)
     * does nothing, and the attempt as first recorded is answered, so it is counted as that one.
     */
    async recordAttempt(auditId: string, record: AttemptRecord, now: Date): Promise<AttemptRecord> {
      const inserted = await db
        .insert(auditAttempts)
        .values({ auditId, ...record, createdAt: now })
        .onConflictDoNothing()
        .returning();
      if (inserted[0]) return toRecord(inserted[0]);
      const [existing] = await db
        .select()
        .from(auditAttempts)
        .where(
          and(
            eq(auditAttempts.auditId, auditId),
            eq(auditAttempts.configuration, record.configuration),
            eq(auditAttempts.questionIndex, record.questionIndex),
            eq(auditAttempts.attemptId, record.attemptId),
          ),
        );
      return existing ? toRecord(existing) : record;
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;

function toRecord(row: typeof auditAttempts.$inferSelect): AttemptRecord {
  return {
    configuration: row.configuration,
    questionIndex: row.questionIndex,
    attemptId: row.attemptId,
    form: row.form as AttemptRecord['form'],
    status: row.status === 'error' ? 'error' : 'done',
    rawLeaked: row.rawLeaked,
    guardedLeaked: row.guardedLeaked,
    disguises: row.disguises,
    turns: row.turns,
    calls: row.calls,
    tokens: row.tokens,
  };
}
