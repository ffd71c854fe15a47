import type { AuditEvent } from '@exam/domain/roles';
import type { AuditLogQuery, AuditLogResponse } from '@exam/domain/sharing';
import type { FastifyBaseLogger } from 'fastify';
import type { ResultsAuditEvents } from '../../deps.ts';
import type { AuditLog } from '../exams/audit-log.repository.ts';
import type { ExamAccessCheck } from '../exams/exam-access.ts';

const newestFirst = (a: AuditEvent, b: AuditEvent) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id);

/**
 * An exam's audit log for its owner ('audit:read'): exam-service's events and results-service's, merged by time,
 * newest first, a page at a time by the `before` + `beforeId` cursor (time, then id: events share milliseconds). Each half is read a page deep, so the merged page is
 * exactly the newest `limit` of both. When results-service cannot answer, the page is exam-service's half and
 * says so (`incomplete`), rather than failing the owner's whole log.
 */
export function createAuditService(
  access: ExamAccessCheck,
  local: AuditLog,
  results: ResultsAuditEvents | undefined,
  log: FastifyBaseLogger,
) {
  async function remoteHalf(examId: string, query: AuditLogQuery): Promise<AuditEvent[] | null> {
    if (!results) return null;
    try {
      return (
        await results.list(examId, { before: query.before, beforeId: query.beforeId, limit: query.limit })
      ).filter((e) => e.examId === examId);
    } catch (err) {
      log.warn({ err, examId }, "results-service's half of the audit log could not be read");
      return null;
    }
  }

  return {
    async list(creatorId: string, examId: string, query: AuditLogQuery): Promise<AuditLogResponse> {
      await access.require(creatorId, examId, 'audit:read');
      const before = query.before ? new Date(query.before) : undefined;
      const [own, remote] = await Promise.all([
        local.list(examId, { before, beforeId: query.beforeId, limit: query.limit }),
        remoteHalf(examId, query),
      ]);
      const merged = [...own, ...(remote ?? [])].sort(newestFirst);
      const events = merged.slice(0, query.limit);
      const more = merged.length > query.limit || own.length === query.limit || remote?.length === query.limit;
      const last = more ? events.at(-1) : undefined;
      return {
        events,
        nextBefore: last?.at ?? null,
        nextBeforeId: last?.id ?? null,
        incomplete: remote === null ? ['results-service'] : [],
      };
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
