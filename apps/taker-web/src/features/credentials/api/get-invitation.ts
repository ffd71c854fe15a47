import { InvitationIdentitySchema, type InvitationIdentity } from '@exam/domain/roster';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** The name and candidate ID a personal invitation link fills in (GET /api/public/exams/{id}/invitations/{token}). */
export function getInvitation(examId: string, token: string): Promise<InvitationIdentity> {
  return apiRequest(api.invitation(examId, token), { schema: InvitationIdentitySchema });
}

export function useInvitation(examId: string, token: string | undefined) {
  return useQuery({
    queryKey: ['invitation', examId, token],
    queryFn: () => getInvitation(examId, token ?? ''),
    enabled: Boolean(token),
    retry: false,
    staleTime: Infinity,
  });
}
