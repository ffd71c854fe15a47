import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { AuditAction, AuditEvent } from '@exam/domain/roles';
import type { ExamDatabase } from '../../db/database.ts';
import { auditEvents, users } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';

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
  deps: Pick<Deps, 'clock' | 'ids'>,
  log: { error(obj: object, msg: string): void },
) {
  // Events one action records together (edited, then published) share a millisecond; the list breaks the tie by id,
  // so ids sort in the order this replica recorded them: the time, a counter, then a unique id.
  let sequence = 0;
  const orderedId = (at: Date) =>
    `${at.getTime().toString().padStart(15, '0')}-${(sequence++ % 1e9).toString().padStart(9, '0')}-${deps.ids.next()}`;
  return {
    async record(entry: AuditEntry): Promise<void> {
      const at = deps.clock.now();
      try {
        await db.insert(auditEvents).values({
          id: orderedId(at),
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

    /** Newest first, strictly before `before` when given. */
    async list(examId: string, opts: { before?: Date | undefined; limit: number }): Promise<AuditEvent[]> {
      const rows = await db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.examId, examId), opts.before ? lt(auditEvents.at, opts.before) : undefined))
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(opts.limit);
      return rows.map((r) => ({
        id: r.id,
        examId: r.examId,
        actorId: r.actorId,
        actorEmail: r.actorEmail,
        action: r.action,
        subject: r.subject,
        detail: r.detail,
        at: r.at.toISOString(),
      }));
    },
  };
}
export type AuditLog = ReturnType<typeof createAuditLog>;
