import { TimelineSchema, type Timeline } from '@exam/domain/timeline';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const timelineKeys = {
  timeline: (resultId: string) => ['timelines', resultId] as const,
};

/** GET /api/results/{id}/timeline (results-service, the exam's creator only): how the attempt came to be. */
export function getTimeline(resultId: string, signal?: AbortSignal): Promise<Timeline> {
  return apiRequest(api.resultTimeline(resultId), { schema: TimelineSchema, signal });
}

export const timelineQuery = (resultId: string) =>
  queryOptions({
    queryKey: timelineKeys.timeline(resultId),
    queryFn: ({ signal }) => getTimeline(resultId, signal),
    enabled: resultId !== '',
    // A submitted attempt's timeline does not change; grading the result does not touch it.
    staleTime: Infinity,
  });

export function useTimeline(resultId: string) {
  return useQuery(timelineQuery(resultId));
}
