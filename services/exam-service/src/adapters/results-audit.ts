import { AuditEventSchema, type AuditEvent } from '@exam/domain/roles';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import { z } from 'zod';
import type { ResultsAuditEvents } from '../deps.ts';

const AuditEventsSchema = z.object({ events: z.array(AuditEventSchema) });

/**
 * results-service's half of an exam's audit log (grades, releases, unlocks, regrades, deletions):
 * GET /internal/exams/{id}/audit-events?before=&beforeId=&limit=, newest first.
 */
export function createHttpResultsAudit(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): ResultsAuditEvents {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async list(
      examId: string,
      page: { before?: string | undefined; beforeId?: string | undefined; limit: number },
    ): Promise<AuditEvent[]> {
      const query = new URLSearchParams({
        limit: String(page.limit),
        ...(page.before && { before: page.before }),
        ...(page.before && page.beforeId && { beforeId: page.beforeId }),
      });
      const { status, body } = await request(`/internal/exams/${encodeURIComponent(examId)}/audit-events?${query}`);
      if (status !== 200) throw unexpectedStatus('results-service', status, `audit events of exam ${examId}`);
      return parseUpstream('results-service', AuditEventsSchema, body, 'audit events').events;
    },
  };
}
