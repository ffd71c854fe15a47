import { OrganizationInvitationListSchema, OrganizationRoleSchema } from '@exam/domain/organizations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

const key = ['organization-invitations'] as const;

/** Invitations from other organizations to the signed-in creator (any creator, admin or not). */
export function useOrganizationInvitations() {
  return useQuery({
    queryKey: key,
    queryFn: () => apiRequest(api.organizationInvitations, { schema: OrganizationInvitationListSchema }),
  });
}

const MovedSchema = z.object({ organizationId: z.string(), name: z.string(), role: OrganizationRoleSchema });

/** Accepting moves the account into the organization: everything about "my organization" is read again. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (organizationId: string) =>
      apiRequest(api.acceptOrganizationInvitation(organizationId), { method: 'POST', schema: MovedSchema }),
    onSuccess: () =>
      queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('organization') }),
  });
}

export function useDeclineInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (organizationId: string) =>
      apiRequest(api.organizationInvitation(organizationId), {
        method: 'DELETE',
        schema: z.object({ organizationId: z.string() }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
