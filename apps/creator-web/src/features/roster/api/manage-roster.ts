import {
  InvitationCountsSchema,
  InvitationPreviewSchema,
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
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
      // Invitations sent may have changed (the dashboard's counts), and with them every preview's "already invited".
      void queryClient.invalidateQueries({ queryKey: ['roster', 'invitation-counts'] });
      void queryClient.invalidateQueries({ queryKey: ['roster', examId, 'invitation-preview'] });
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

/** Which candidates to invite (without ids, every candidate with an e-mail) and the creator's message. */
export type InvitationRequest = { entryIds?: string[] | undefined; message?: string | undefined };
const invitationBody = ({ entryIds, message }: InvitationRequest) => ({
  ...(entryIds && { entryIds }),
  ...(message && { message }),
});

export function useInviteCandidates(examId: string) {
  return useRosterMutation(
    examId,
    (request: InvitationRequest) =>
      apiRequest(api.invitations(examId), {
        method: 'POST',
        body: invitationBody(request),
        schema: InviteResponseSchema,
      }),
    rosterPart,
  );
}

/** POST …/invitations/preview: the mail the same request would send (subject, text, HTML), and to how many. */
export function useInvitationPreview(examId: string, request: InvitationRequest, enabled: boolean) {
  return useQuery({
    queryKey: ['roster', examId, 'invitation-preview', request.entryIds ?? 'all', request.message ?? ''] as const,
    queryFn: () =>
      apiRequest(api.invitationPreview(examId), {
        method: 'POST',
        body: invitationBody(request),
        schema: InvitationPreviewSchema,
      }),
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/exams/invitation-counts: invitations sent per exam, as a map (exams with none are absent: 0). */
export function useInvitationCounts() {
  return useQuery({
    queryKey: ['roster', 'invitation-counts'] as const,
    queryFn: () =>
      apiRequest(api.invitationCounts, { schema: InvitationCountsSchema }).then(
        (r) => new Map(r.exams.map((e) => [e.examId, e.invited])),
      ),
    retry: false,
  });
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
