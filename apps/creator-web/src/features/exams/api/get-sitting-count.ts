import { ExamLiveSchema } from '@exam/domain/live';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * How many candidates are sitting the exam now: its in-progress attempts in the live view (GET /api/exams/{id}/live,
 * results-service). Asked afresh each time it is needed (before taking the exam offline), never from a stale cache.
 */
export function useSittingCount(examId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['exams', 'sitting', examId],
    queryFn: ({ signal }) =>
      apiRequest(api.examLive(examId), { schema: ExamLiveSchema, signal }).then(
        (live) => live.attempts.filter((a) => a.status === 'in-progress').length,
      ),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
