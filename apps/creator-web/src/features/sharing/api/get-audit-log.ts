import { AuditLogResponseSchema } from '@exam/domain/sharing';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** The exam's audit log, a page at a time (newest first); the next page starts before the last event shown. */
export const auditLogQuery = (examId: string) =>
  infiniteQueryOptions({
    queryKey: ['audit-log', examId],
    queryFn: ({ pageParam }) => apiRequest(api.examAudit(examId, pageParam), { schema: AuditLogResponseSchema }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextBefore ?? undefined,
  });

export function useAuditLog(examId: string) {
  return useInfiniteQuery(auditLogQuery(examId));
}
