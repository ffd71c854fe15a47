import { DeletedSchema } from '@exam/domain/exam';
import {
  LtiDeepLinkResponseSchema,
  LtiLaunchSessionSchema,
  LtiLinkAccountResponseSchema,
  LtiPlatformEnvelopeSchema,
  LtiPlatformListSchema,
  LtiToolConfigurationSchema,
  type LtiPlatformInput,
} from '@exam/domain/lti';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

const ltiKeys = { platforms: ['lti', 'platforms'] as const, tool: ['lti', 'tool-configuration'] as const };

/** The ticket of an instructor's launch: a creator session when their LMS account is linked (no token sent). */
export function openLaunchSession(ticket: string) {
  return apiRequest(api.ltiLaunchSession, {
    method: 'POST',
    body: { ticket },
    schema: LtiLaunchSessionSchema,
    anonymous: true,
  });
}

export function linkLmsAccount(ticket: string) {
  return apiRequest(api.ltiLinkAccount, { method: 'POST', body: { ticket }, schema: LtiLinkAccountResponseSchema });
}

export function respondDeepLink(ticket: string, examId: string) {
  return apiRequest(api.ltiDeepLinks, {
    method: 'POST',
    body: { ticket, examId },
    schema: LtiDeepLinkResponseSchema,
  });
}

export function usePlatforms() {
  return useQuery({
    queryKey: ltiKeys.platforms,
    queryFn: () => apiRequest(api.ltiPlatforms, { schema: LtiPlatformListSchema }).then((d) => d.platforms),
  });
}

export function useToolConfiguration() {
  return useQuery({
    queryKey: ltiKeys.tool,
    queryFn: () => apiRequest(api.ltiToolConfiguration, { schema: LtiToolConfigurationSchema }),
    staleTime: Infinity,
  });
}

export function useCreatePlatform() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LtiPlatformInput) =>
      apiRequest(api.ltiPlatforms, { method: 'POST', body, schema: LtiPlatformEnvelopeSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ltiKeys.platforms }),
  });
}

export function useDeletePlatform() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (platformId: string) =>
      apiRequest(api.ltiPlatform(platformId), { method: 'DELETE', schema: DeletedSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ltiKeys.platforms }),
  });
}
