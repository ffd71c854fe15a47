import { ExamSchema, type Exam } from '@exam/domain/exam';
import { SimilarityReportSchema, type SimilarityReport } from '@exam/domain/similarity';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { insightsKeys } from './get-insights.ts';

export const similarityKeys = {
  report: (examId: string, threshold: number) => [...insightsKeys.all, 'similarity', examId, threshold] as const,
};

/** GET /api/exams/{examId}/insights/similarity?threshold= (results-service): the code-similarity report. */
export function getSimilarity(examId: string, threshold: number): Promise<SimilarityReport> {
  return apiRequest(api.examSimilarity(examId, threshold), { schema: SimilarityReportSchema });
}

/** The previous threshold's report stays on screen while the next one loads, so the list does not flash. */
export function useSimilarity(examId: string, threshold: number) {
  return useQuery({
    queryKey: similarityKeys.report(examId, threshold),
    queryFn: () => getSimilarity(examId, threshold),
    placeholderData: keepPreviousData,
  });
}

/** PUT /api/exams/{examId} (exam-service) with only the threshold: the exam's default from now on. */
export function saveSimilarityThreshold(examId: string, similarityThreshold: number): Promise<Exam> {
  return apiRequest(api.exam(examId), { method: 'PUT', body: { similarityThreshold }, schema: ExamSchema });
}

export function useSaveSimilarityThreshold(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (threshold: number) => saveSimilarityThreshold(examId, threshold),
    onSuccess: (exam) => queryClient.setQueryData(insightsKeys.exam(examId), exam),
  });
}
