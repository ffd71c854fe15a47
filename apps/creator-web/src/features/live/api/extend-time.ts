import { OverrideEnvelopeSchema, OverrideListSchema, type OverrideInput } from '@exam/domain/cohort';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { liveKeys } from './manage-live-exam.ts';

/**
 * Adds minutes to one candidate's extra time: reads their current override (GET /api/exams/{id}/overrides),
 * then PUTs it back with the minutes added. A PUT replaces the override (omitted fields fall back to the
 * exam's), so its other accommodations are sent back as they were. The server recomputes the deadline of
 * the attempt in progress, and the candidate's page picks it up at its next poll. Returns the new extra time.
 */
export async function extendTime(examId: string, studentId: string, minutes: number): Promise<number> {
  const { overrides } = await apiRequest(api.examOverrides(examId), { schema: OverrideListSchema });
  const current = overrides.find((o) => o.studentId === studentId);
  const body: OverrideInput = { extraMinutes: (current?.extraMinutes ?? 0) + minutes };
  if (current?.timeFactor != null) body.timeFactor = current.timeFactor;
  if (current?.opensAt != null) body.opensAt = current.opensAt;
  if (current?.closesAt != null) body.closesAt = current.closesAt;
  if (current?.attemptsAllowed != null) body.attemptsAllowed = current.attemptsAllowed;
  const { override } = await apiRequest(api.examOverride(examId, studentId), {
    method: 'PUT',
    body,
    schema: OverrideEnvelopeSchema,
  });
  return override.extraMinutes ?? body.extraMinutes ?? minutes;
}

export function useExtendTime(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ studentId, minutes }: { studentId: string; minutes: number }) =>
      extendTime(examId, studentId, minutes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: liveKeys.exam(examId) }),
  });
}
