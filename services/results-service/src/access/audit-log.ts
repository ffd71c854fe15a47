import type { AuditAction, AuditEvent } from '@exam/domain/roles';
import { and, desc, eq } from 'drizzle-orm';
import type { ResultsDatabase } from '../db/database.ts';
import { auditEvents } from '../db/schema.ts';
import { olderThanCursor, orderedAuditId, toAuditEvent, type AuditCursor } from '@exam/server-kit/audit-events';

/**
 * results-service's half of an exam's audit log (docs: ARCHITECTURE.md, roles): who graded, released, regraded,
 * deleted, unlocked, extended time, changed accommodations or announced. exam-service merges it with its own half
 * for the owner (GET /internal/exams/:id/audit-events). Written in the transaction of the change where there is one.
 */
export type AuditActor = { id: string; email: string };

export type AuditEntry = {
  examId: string;
  action: AuditAction;
  subject: string | null;
  detail?: Record<string, unknown>;
};

type AuditRow = typeof auditEvents.$inferInsert;
type Db = ResultsDatabase['db'];
/** A drizzle transaction of the results database, or the database itself. */
export type AuditWriter = Pick<Db, 'insert'>;

export function auditRows(actor: AuditActor, at: Date, entries: readonly AuditEntry[]): AuditRow[] {
  return entries.map((e) => ({
    id: orderedAuditId(at),
    examId: e.examId,
    actorId: actor.id,
    actorEmail: actor.email,
    action: e.action,
    subject: e.subject,
    detail: e.detail ?? {},
    at,
  }));
}

export async function recordAudit(
  writer: AuditWriter,
  actor: AuditActor,
  at: Date,
  entries: readonly AuditEntry[],
): Promise<void> {
  const rows = auditRows(actor, at, entries);
  for (let i = 0; i < rows.length; i += 500) await writer.insert(auditEvents).values(rows.slice(i, i + 500));
}

/** An exam's events, newest first, older than the cursor when given (olderThanCursor). */
export async function listAuditEvents(
  db: Db,
  examId: string,
  opts: AuditCursor & { limit: number },
): Promise<AuditEvent[]> {
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.examId, examId), olderThanCursor(auditEvents, opts)))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(opts.limit);
  return rows.map(toAuditEvent);
}
