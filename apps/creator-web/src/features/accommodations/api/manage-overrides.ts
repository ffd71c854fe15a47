import { OverrideEnvelopeSchema, OverrideListSchema, type Override, type OverrideInput } from '@exam/domain/cohort';
import { ExamSchema, type Exam } from '@exam/domain/exam';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const accommodationKeys = {
  all: ['accommodations'] as const,
  exam: (examId: string) => [...accommodationKeys.all, 'exam', examId] as const,
  overrides: (examId: string) => [...accommodationKeys.all, 'overrides', examId] as const,
};

/** GET /api/exams/{examId} (exam-service): the exam's own duration, window and attempts the overrides change. */
export function getAccommodationsExam(examId: string): Promise<Exam> {
  return apiRequest(api.exam(examId), { schema: ExamSchema });
}

/** GET /api/exams/{examId}/overrides (results-service): every candidate's accommodation, for the owner only. */
export function listOverrides(examId: string): Promise<Override[]> {
  return apiRequest(api.examOverrides(examId), { schema: OverrideListSchema }).then((data) => data.overrides);
}

/** PUT /api/exams/{examId}/overrides/{studentId}: sets one candidate's accommodation (omitted fields: the exam's). */
export function putOverride(examId: string, studentId: string, body: OverrideInput): Promise<Override> {
  return apiRequest(api.examOverride(examId, studentId), {
    method: 'PUT',
    body,
    schema: OverrideEnvelopeSchema,
  }).then((data) => data.override);
}

export function useAccommodationsExam(examId: string) {
  return useQuery({
    queryKey: accommodationKeys.exam(examId),
    queryFn: () => getAccommodationsExam(examId),
    retry: false,
  });
}

export function useOverrides(examId: string) {
  return useQuery({ queryKey: accommodationKeys.overrides(examId), queryFn: () => listOverrides(examId) });
}

export function useSaveOverride(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ studentId, body }: { studentId: string; body: OverrideInput }) =>
      putOverride(examId, studentId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accommodationKeys.overrides(examId) }),
  });
}
