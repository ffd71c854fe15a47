import { and, desc, eq, sql } from 'drizzle-orm';
import type { AuditAction, AuditEvent } from '@exam/domain/roles';
import type { ExamDatabase } from '../../db/database.ts';
import { auditEvents, users } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { olderThanCursor, orderedAuditId, toAuditEvent, type AuditCursor } from '@exam/server-kit/audit-events';

export type AuditEntry = {
  examId: string;
  /** The creator who acted; their e-mail is kept beside the id, so the log reads the same after the account goes. */
  actorId: string | null;
  action: AuditAction;
  subject?: string | null;
  detail?: Record<string, unknown>;
};

/**
 * exam-service's half of an exam's audit log (@exam/domain/roles AuditEvent): authoring and sharing. Recording
 * never fails the creator's action it follows: the change is already made, and a lost line is logged instead.
 */
export function createAuditLog(
  { db }: ExamDatabase,
  deps: Pick<Deps, 'clock'>,
  log: { error(obj: object, msg: string): void },
) {
  return {
    async record(entry: AuditEntry): Promise<void> {
      const at = deps.clock.now();
      try {
        await db.insert(auditEvents).values({
          id: orderedAuditId(at),
          examId: entry.examId,
          actorId: entry.actorId,
          actorEmail: entry.actorId
            ? sql`(select ${users.email} from ${users} where ${users.id} = ${entry.actorId})`
            : null,
          action: entry.action,
          subject: entry.subject ?? null,
          detail: entry.detail ?? {},
          at,
        });
      } catch (err) {
        log.error({ err, examId: entry.examId, action: entry.action }, 'an audit event was not recorded');
      }
    },

    /** Newest first, older than the cursor when given (olderThanCursor). */
    async list(examId: string, opts: AuditCursor & { limit: number }): Promise<AuditEvent[]> {
      const rows = await db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.examId, examId), olderThanCursor(auditEvents, opts)))
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(opts.limit);
      return rows.map(toAuditEvent);
    },
  };
}
export type AuditLog = ReturnType<typeof createAuditLog>;
