import {
  OrganizationRoleSchema,
  OrganizationSchema,
  SsoDiscoveryResultSchema,
  type OrganizationInviteCreate,
  type OrganizationRole,
  type OrganizationUpdate,
  type SsoSettingsUpdate,
} from '@exam/domain/organizations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

const keys = { me: ['organization', 'me'] as const, organization: ['organization'] as const };

const MyOrganizationSchema = z.object({ organizationId: z.string(), name: z.string(), role: OrganizationRoleSchema });

/** The signed-in creator's organization and role: the layout shows the settings link to admins only. */
export function useMyOrganization() {
  return useQuery({
    queryKey: keys.me,
    queryFn: () => apiRequest(api.organizationMe, { schema: MyOrganizationSchema }),
    staleTime: 60_000,
  });
}

export function useOrganization() {
  return useQuery({
    queryKey: keys.organization,
    queryFn: () => apiRequest(api.organization, { schema: OrganizationSchema }),
  });
}

/** Every change answers the whole organization, which replaces the cached one. */
function useOrganizationChange<T>(request: (input: T) => Promise<z.infer<typeof OrganizationSchema>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (organization) => {
      queryClient.setQueryData(keys.organization, organization);
      void queryClient.invalidateQueries({ queryKey: keys.me });
    },
  });
}

export const useUpdateOrganization = () =>
  useOrganizationChange((body: OrganizationUpdate) =>
    apiRequest(api.organization, { method: 'PATCH', body, schema: OrganizationSchema }),
  );

export const useInvite = () =>
  useOrganizationChange((body: OrganizationInviteCreate) =>
    apiRequest(api.organizationInvites, { method: 'POST', body, schema: OrganizationSchema }),
  );

export const useCancelInvite = () =>
  useOrganizationChange((email: string) =>
    apiRequest(api.organizationInvite(email), { method: 'DELETE', schema: OrganizationSchema }),
  );

export const useSetMemberRole = () =>
  useOrganizationChange(({ userId, role }: { userId: string; role: OrganizationRole }) =>
    apiRequest(api.organizationMember(userId), { method: 'PATCH', body: { role }, schema: OrganizationSchema }),
  );

export const useRemoveMember = () =>
  useOrganizationChange((userId: string) =>
    apiRequest(api.organizationMember(userId), { method: 'DELETE', schema: OrganizationSchema }),
  );

export const useSaveSso = () =>
  useOrganizationChange((body: SsoSettingsUpdate) =>
    apiRequest(api.organizationSso, { method: 'PUT', body, schema: OrganizationSchema }),
  );

/** The "Test" button: fetches the issuer's discovery document through exam-service. */
export function useDiscoverIssuer() {
  return useMutation({
    mutationFn: (issuer: string) =>
      apiRequest(api.organizationSsoDiscovery, {
        method: 'POST',
        body: { issuer },
        schema: SsoDiscoveryResultSchema,
      }),
  });
}
