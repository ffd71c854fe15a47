import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditEvent } from '@exam/domain/roles';
import { and, eq, lt, or, type Column, type SQL } from 'drizzle-orm';

/**
 * What exam-service and results-service share about their halves of an exam's audit log (@exam/domain/roles): the
 * ids that keep one action's events in order, and the row as the API serves it.
 */

let sequence = 0;

/**
 * An event id that sorts by time, then by the order this process recorded events: one action's events (edited, then
 * published; a mark on each question) share a millisecond, and the logs list newest first by (at, id).
 */
export function orderedAuditId(at: Date): string {
  sequence = (sequence + 1) % 1e9;
  return `${at.getTime().toString().padStart(15, '0')}-${sequence.toString().padStart(9, '0')}-${randomUUID()}`;
}

/** A stored audit row of either service. */
export type AuditRow = {
  id: string;
  examId: string;
  actorId: string | null;
  actorEmail: string | null;
  action: AuditAction;
  subject: string | null;
  detail: Record<string, unknown>;
  at: Date;
};

/** A stored audit row, as AuditEventSchema serves it. */
export function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    examId: row.examId,
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    subject: row.subject,
    detail: row.detail,
    at: row.at.toISOString(),
  };
}

/** Where a page of an audit log starts: strictly older than `before`, or at `before` with an id below `beforeId`. */
export type AuditCursor = { before?: Date | undefined; beforeId?: string | undefined };

/**
 * The condition for events older than the cursor in the logs' order (at, then id, newest first). The id breaks ties
 * between events of one millisecond, so a page that ends among them leaves none out and repeats none.
 */
export function olderThanCursor(columns: { at: Column; id: Column }, cursor: AuditCursor): SQL | undefined {
  if (!cursor.before) return undefined;
  if (!cursor.beforeId) return lt(columns.at, cursor.before);
  return or(lt(columns.at, cursor.before), and(eq(columns.at, cursor.before), lt(columns.id, cursor.beforeId)));
}
