import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { liveKeys } from './live-queries.ts';

/** The fields of a candidate's override this page reads back and keeps (the rest stay as the server has them). */
const OverrideFieldsSchema = z.object({
  studentId: z.string(),
  extraMinutes: z.number().nullish(),
  timeFactor: z.number().nullish(),
  opensAt: z.string().nullish(),
  closesAt: z.string().nullish(),
  attemptsAllowed: z.number().int().nullish(),
});
const OverrideListSchema = z.union([
  z.array(OverrideFieldsSchema),
  z.object({ overrides: z.array(OverrideFieldsSchema) }).transform((body) => body.overrides),
]);

const defined = <T extends Record<string, unknown>>(record: T) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined));

/**
 * Adds minutes to one candidate's extra time: reads their current override (GET /api/exams/{id}/overrides),
 * then PUTs it back with the minutes added, keeping its other accommodations. The server recomputes the
 * deadline of the attempt in progress, and the candidate's page picks it up at its next poll.
 */
export async function extendTime(examId: string, studentId: string, minutes: number): Promise<number> {
  const list = await apiRequest(api.examOverrides(examId), { schema: OverrideListSchema });
  const current = list.find((o) => o.studentId === studentId);
  const { studentId: _id, ...fields } = current ?? { studentId };
  const extraMinutes = (current?.extraMinutes ?? 0) + minutes;
  await apiRequest(api.examOverride(examId, studentId), {
    method: 'PUT',
    body: { ...defined(fields), extraMinutes },
    schema: z.unknown(),
  });
  return extraMinutes;
}

export function useExtendTime(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ studentId, minutes }: { studentId: string; minutes: number }) =>
      extendTime(examId, studentId, minutes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: liveKeys.exam(examId) }),
  });
}
