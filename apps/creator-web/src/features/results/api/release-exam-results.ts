import { ExamReleaseReportSchema, type ExamReleaseReport } from '@exam/domain/result';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { resultKeys } from './get-results.ts';

/** POST /api/exams/{examId}/release: shows every graded result of the exam to its candidate; pending ones stay. */
export function releaseExamResults(examId: string): Promise<ExamReleaseReport> {
  return apiRequest(api.examRelease(examId), {
    method: 'POST',
    body: { released: true },
    schema: ExamReleaseReportSchema,
  });
}

export function useReleaseExamResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseExamResults,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: resultKeys.all }),
  });
}
