import {
  CollaborationJudgementSchema,
  CollaborationProfileSchema,
  type CollaborationJudgement,
  type CollaborationProfile,
  type JudgedDimension,
} from '@exam/domain/collaboration';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const collaborationKeys = {
  profile: (resultId: string) => ['collaboration', resultId] as const,
};

/** GET /api/results/{id}/collaboration (results-service, the exam's creator only). */
export function getCollaboration(resultId: string, signal?: AbortSignal): Promise<CollaborationProfile> {
  return apiRequest(api.resultCollaboration(resultId), { schema: CollaborationProfileSchema, signal });
}

export const collaborationQuery = (resultId: string) =>
  queryOptions({
    queryKey: collaborationKeys.profile(resultId),
    queryFn: ({ signal }) => getCollaboration(resultId, signal),
    enabled: resultId !== '',
  });

export function useCollaboration(resultId: string) {
  return useQuery(collaborationQuery(resultId));
}

/** POST …/collaboration/suggestions: the AI's framing and verification levels; answers the updated profile. */
export function useSuggestCollaboration(resultId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(api.resultCollaborationSuggestions(resultId), {
        method: 'POST',
        schema: CollaborationProfileSchema,
      }),
    onSuccess: (profile) => client.setQueryData(collaborationKeys.profile(resultId), profile),
  });
}

/** PUT …/collaboration/{dimension}: the grader's level (accepted when it equals the suggestion). */
export function useSetCollaborationLevel(resultId: string, dimension: JudgedDimension) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (level: number): Promise<CollaborationJudgement> =>
      apiRequest(api.resultCollaborationLevel(resultId, dimension), {
        method: 'PUT',
        body: { level },
        schema: CollaborationJudgementSchema,
      }),
    onSuccess: (judgement) =>
      client.setQueryData<CollaborationProfile>(
        collaborationKeys.profile(resultId),
        (profile) =>
          profile && {
            ...profile,
            dimensions: profile.dimensions.map((d) =>
              d.dimension === dimension ? { ...d, level: judgement.finalLevel, reason: null, judgement } : d,
            ),
          },
      ),
  });
}
