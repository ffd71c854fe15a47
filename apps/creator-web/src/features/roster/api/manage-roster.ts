import {
  InviteResponseSchema,
  RosterEntrySchema,
  RosterImportResponseSchema,
  RosterResponseSchema,
  type RosterAdmission,
  type RosterEntryInput,
  type RosterResponse,
} from '@exam/domain/roster';
import { DeletedSchema } from '@exam/domain/exam';
import { LmsRosterImportResponseSchema, LmsRosterPreviewSchema, LmsRosterSourceSchema } from '@exam/domain/lti-ags';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const rosterKeys = { exam: (examId: string) => ['roster', examId] as const };

export const rosterQuery = (examId: string) =>
  queryOptions({
    queryKey: rosterKeys.exam(examId),
    queryFn: () => apiRequest(api.roster(examId), { schema: RosterResponseSchema }),
  });

export function useRoster(examId: string) {
  return useQuery(rosterQuery(examId));
}

/** Every roster change answers the new roster (or an entry of it); the cached roster is replaced or refetched. */
function useRosterMutation<V, R>(
  examId: string,
  request: (vars: V) => Promise<R>,
  rosterOf?: (r: R) => RosterResponse,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (result) => {
      if (rosterOf) queryClient.setQueryData(rosterKeys.exam(examId), rosterOf(result));
      else void queryClient.invalidateQueries({ queryKey: rosterKeys.exam(examId) });
    },
  });
}

const rosterPart = ({ entries, rosterAdmission }: RosterResponse): RosterResponse => ({ entries, rosterAdmission });

/** PUT …/roster/admission: whether a typed roster ID is enough to start, or the personal invitation link is needed. */
export function useSetRosterAdmission(examId: string) {
  return useRosterMutation(
    examId,
    (rosterAdmission: RosterAdmission) =>
      apiRequest(api.rosterAdmission(examId), {
        method: 'PUT',
        body: { rosterAdmission },
        schema: RosterResponseSchema,
      }),
    rosterPart,
  );
}

export function useAddRosterEntry(examId: string) {
  return useRosterMutation(examId, (entry: RosterEntryInput) =>
    apiRequest(api.roster(examId), { method: 'POST', body: entry, schema: RosterEntrySchema }),
  );
}

export function useUpdateRosterEntry(examId: string) {
  return useRosterMutation(examId, ({ id, ...entry }: RosterEntryInput & { id: string }) =>
    apiRequest(api.rosterEntry(examId, id), { method: 'PUT', body: entry, schema: RosterEntrySchema }),
  );
}

export function useRemoveRosterEntry(examId: string) {
  return useRosterMutation(examId, (id: string) =>
    apiRequest(api.rosterEntry(examId, id), { method: 'DELETE', schema: DeletedSchema }),
  );
}

/** All or nothing: a 400 lists every bad row (issues with paths rows.<line>.<field>). */
export function useImportRoster(examId: string) {
  return useRosterMutation(
    examId,
    (csv: string) =>
      apiRequest(api.rosterImport(examId), { method: 'POST', body: { csv }, schema: RosterImportResponseSchema }),
    rosterPart,
  );
}

/** Without ids, every candidate with an e-mail is invited. */
export function useInviteCandidates(examId: string) {
  return useRosterMutation(
    examId,
    (entryIds: string[] | undefined) =>
      apiRequest(api.invitations(examId), {
        method: 'POST',
        body: entryIds ? { entryIds } : {},
        schema: InviteResponseSchema,
      }),
    rosterPart,
  );
}

/** GET …/roster/lms: whether the exam is placed in an LMS course whose roster can be imported. */
export function useLmsRosterSource(examId: string) {
  return useQuery({
    queryKey: ['roster', examId, 'lms'] as const,
    queryFn: () => apiRequest(api.rosterLms(examId), { schema: LmsRosterSourceSchema }),
  });
}

/** GET …/roster/lms/preview: the course's active learners, read from the LMS when the creator asks. */
export function useLmsRosterPreview(examId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['roster', examId, 'lms', 'preview'] as const,
    queryFn: () => apiRequest(api.rosterLmsPreview(examId), { schema: LmsRosterPreviewSchema }),
    enabled,
    retry: false,
  });
}

export function useImportLmsRoster(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(api.rosterLmsImport(examId), { method: 'POST', schema: LmsRosterImportResponseSchema }),
    onSuccess: (result) => {
      queryClient.setQueryData(rosterKeys.exam(examId), rosterPart(result));
      void queryClient.invalidateQueries({ queryKey: ['roster', examId, 'lms', 'preview'] });
    },
  });
}
