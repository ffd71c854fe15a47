import {
  eraseCandidateRows,
  exportCandidateRows,
  tablesOfSchema,
  type CandidateIds,
} from '@exam/server-kit/candidate-data';
import type { Db } from '@exam/server-kit/db';
import type { AuditRow } from '@exam/server-kit/audit-events';
import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import { EXAM_CANDIDATE_TABLES } from './candidate-tables.ts';

export const EXAM_TABLES = tablesOfSchema(schema);
const { auditEvents, dataErasures, exams, mailQueue } = schema;
export type ErasureRow = typeof dataErasures.$inferSelect;

/** data_erasures, the audit log's data requests, and exam-service's own part of a candidate's data. */
export function createPrivacyRepository({ db }: ExamDatabase) {
  const anyDb = db as unknown as Db;
  return {
    /** Inserts the record; a retention record's id is derived from its attempts, so a second replica's is a no-op. */
    async insertErasure(row: typeof dataErasures.$inferInsert): Promise<boolean> {
      const inserted = await db
        .insert(dataErasures)
        .values(row)
        .onConflictDoNothing()
        .returning({ id: dataErasures.id });
      return inserted.length > 0;
    },

    async findErasure(id: string): Promise<ErasureRow | undefined> {
      const [row] = await db.select().from(dataErasures).where(eq(dataErasures.id, id));
      return row;
    },

    async listErasures(examId: string): Promise<ErasureRow[]> {
      return db
        .select()
        .from(dataErasures)
        .where(eq(dataErasures.examId, examId))
        .orderBy(desc(dataErasures.requestedAt))
        .limit(200);
    },

    /**
     * Claims one incomplete erasure whose lease is missing or lapsed (FOR UPDATE SKIP LOCKED, so replicas take
     * different ones) and leases it until `until`. The lease lives in the record's `services._resume`.
     */
    async claimIncomplete(now: Date, until: Date): Promise<ErasureRow | undefined> {
      const [row] = await db
        .update(dataErasures)
        .set({
          services: sql`jsonb_set(${dataErasures.services}, '{_resume,leaseUntil}', to_jsonb(${until.toISOString()}::text))`,
        })
        .where(
          eq(
            dataErasures.id,
            sql`(select id from ${dataErasures} where ${dataErasures.completedAt} is null
              and coalesce((${dataErasures.services} -> '_resume' ->> 'leaseUntil')::timestamptz, '-infinity'::timestamptz) < ${now.toISOString()}::timestamptz
              order by ${dataErasures.requestedAt} limit 1 for update skip locked)`,
          ),
        )
        .returning();
      return row;
    },

    /** Writes one service's outcome into the record (the other services' entries untouched). */
    async setOutcome(id: string, service: string, outcome: Record<string, unknown>): Promise<void> {
      await db
        .update(dataErasures)
        .set({
          services: sql`jsonb_set(${dataErasures.services}, ${`{${service}}`}::text[], ${JSON.stringify(outcome)}::jsonb)`,
        })
        .where(eq(dataErasures.id, id));
    },

    /** Completes the record and forgets what it needed to resume (the candidate key, the attempts). */
    async complete(id: string, at: Date): Promise<void> {
      await db
        .update(dataErasures)
        .set({ completedAt: at, services: sql`${dataErasures.services} - '_resume'` })
        .where(eq(dataErasures.id, id));
    },

    /** Lets the job take the record at its next pass (the request's own run ended with a service failed). */
    async release(id: string): Promise<void> {
      await db
        .update(dataErasures)
        .set({ services: sql`${dataErasures.services} #- '{_resume,leaseUntil}'` })
        .where(eq(dataErasures.id, id));
    },

    async audit(event: AuditRow): Promise<void> {
      await db.insert(auditEvents).values(event);
    },

    /** Exams with a retention period. */
    async examsWithRetention(): Promise<Array<{ id: string; retentionDays: number }>> {
      const rows = await db
        .select({ id: exams.id, retentionDays: exams.retentionDays })
        .from(exams)
        .where(isNotNull(exams.retentionDays));
      return rows.flatMap((r) => (r.retentionDays === null ? [] : [{ id: r.id, retentionDays: r.retentionDays }]));
    },

    /** Whether a retention purge of the exam is still incomplete (the job resumes it before starting another). */
    async hasIncompleteRetention(examId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: dataErasures.id })
        .from(dataErasures)
        .where(
          and(eq(dataErasures.examId, examId), eq(dataErasures.reason, 'retention'), isNull(dataErasures.completedAt)),
        )
        .limit(1);
      return Boolean(row);
    },

    /** exam-service's part of an erasure on request: roster entry, mail, audit subjects. */
    async eraseCandidate(ids: CandidateIds): Promise<Record<string, number>> {
      return db.transaction((tx) => eraseCandidateRows(tx as unknown as Db, EXAM_TABLES, EXAM_CANDIDATE_TABLES, ids));
    },

    /** exam-service's part of a retention purge: mail about the purged candidates queued before the cut-off. */
    async eraseRetainedMail(examId: string, candidateKeys: string[], before: Date): Promise<Record<string, number>> {
      if (candidateKeys.length === 0) return {};
      const rows = await db
        .delete(mailQueue)
        .where(
          and(
            eq(mailQueue.examId, examId),
            inArray(mailQueue.candidateKey, candidateKeys),
            lt(mailQueue.createdAt, before),
          ),
        )
        .returning({ id: mailQueue.id });
      return rows.length > 0 ? { mail_queue: rows.length } : {};
    },

    async exportCandidate(ids: CandidateIds) {
      return exportCandidateRows(anyDb, 'exam-service', EXAM_TABLES, EXAM_CANDIDATE_TABLES, ids);
    },
  };
}
export type PrivacyRepository = ReturnType<typeof createPrivacyRepository>;
