import { AuditLogResponseSchema } from '@exam/domain/sharing';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** The exam's audit log, a page at a time (newest first); the next page starts after the last event shown. */
export const auditLogQuery = (examId: string) =>
  infiniteQueryOptions({
    queryKey: ['audit-log', examId],
    queryFn: ({ pageParam }) => apiRequest(api.examAudit(examId, pageParam), { schema: AuditLogResponseSchema }),
    initialPageParam: undefined as { before: string; beforeId: string | null } | undefined,
    // The id with the instant: a page may end among events of one millisecond (ARCHITECTURE.md, audit log).
    getNextPageParam: (page) =>
      page.nextBefore ? { before: page.nextBefore, beforeId: page.nextBeforeId } : undefined,
  });

export function useAuditLog(examId: string) {
  return useInfiniteQuery(auditLogQuery(examId));
}
