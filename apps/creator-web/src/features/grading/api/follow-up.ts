import { FollowUpForGraderSchema, type FollowUpForGrader, type MarkFollowUpSchema } from '@exam/domain/follow-up';
import type { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export type MarkFollowUp = z.input<typeof MarkFollowUpSchema>;

export const followUpKeys = {
  followUp: (resultId: string) => ['follow-ups', resultId] as const,
};

/** GET /api/results/{id}/follow-up (results-service, the exam's creator only): the questions, answers and marks. */
export function getFollowUp(resultId: string, signal?: AbortSignal): Promise<FollowUpForGrader> {
  return apiRequest(api.resultFollowUp(resultId), { schema: FollowUpForGraderSchema, signal });
}

export const followUpQuery = (resultId: string) =>
  queryOptions({
    queryKey: followUpKeys.followUp(resultId),
    queryFn: ({ signal }) => getFollowUp(resultId, signal),
    enabled: resultId !== '',
  });

export function useFollowUp(resultId: string) {
  return useQuery(followUpQuery(resultId));
}

/**
 * PUT /api/results/{id}/follow-up/{n}/mark: a rubric level (its index) or null to clear. The answer is the whole
 * follow-up again, its points recomputed; the exam's score is not touched (follow-up marks are never added to it).
 */
export function useMarkFollowUp(resultId: string, n: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkFollowUp) =>
      apiRequest(api.resultFollowUpMark(resultId, n), { method: 'PUT', body, schema: FollowUpForGraderSchema }),
    onSuccess: (followUp) => client.setQueryData(followUpKeys.followUp(resultId), followUp),
  });
}
