import { DeletedSchema } from '@exam/domain/exam';
import type { SharedRole } from '@exam/domain/roles';
import {
  AddExamMemberResponseSchema,
  ExamMembersResponseSchema,
  ExamMemberViewSchema,
  type AddExamMember,
} from '@exam/domain/sharing';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const membersKeys = { exam: (examId: string) => ['members', examId] as const };

export const membersQuery = (examId: string) =>
  queryOptions({
    queryKey: membersKeys.exam(examId),
    queryFn: () => apiRequest(api.examMembers(examId), { schema: ExamMembersResponseSchema }),
  });

export function useMembers(examId: string) {
  return useQuery(membersQuery(examId));
}

/** Every change answers one row; the list is read again, with the audit log that recorded it. */
function useMembersMutation<V, R>(examId: string, request: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: membersKeys.exam(examId) });
      void queryClient.invalidateQueries({ queryKey: ['audit-log', examId] });
    },
  });
}

export function useAddMember(examId: string) {
  return useMembersMutation(examId, (member: AddExamMember) =>
    apiRequest(api.examMembers(examId), { method: 'POST', body: member, schema: AddExamMemberResponseSchema }),
  );
}

export function useUpdateMember(examId: string) {
  return useMembersMutation(
    examId,
    ({ creatorId, ...change }: { creatorId: string; role?: SharedRole; mayRelease?: boolean }) =>
      apiRequest(api.examMember(examId, creatorId), { method: 'PATCH', body: change, schema: ExamMemberViewSchema }),
  );
}

export function useRemoveMember(examId: string) {
  return useMembersMutation(examId, (creatorId: string) =>
    apiRequest(api.examMember(examId, creatorId), { method: 'DELETE', schema: DeletedSchema }),
  );
}

export function useRemoveInvite(examId: string) {
  return useMembersMutation(examId, (email: string) =>
    apiRequest(api.examInvite(examId, email), { method: 'DELETE', schema: DeletedSchema }),
  );
}
