import { ExamResultsSummarySchema, type ExamResultsSummary as ExamResultsSummaryResponse } from '@exam/domain/result';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** One exam's attempt counts (GET /api/results/summary, results-service). */
export type ExamResultsSummary = ExamResultsSummaryResponse['exams'][number];

export function getResultsSummary(): Promise<ExamResultsSummary[]> {
  return apiRequest(api.resultsSummary, { schema: ExamResultsSummarySchema }).then((data) => data.exams);
}

export function useResultsSummary() {
  // No retries: the dashboard shows '—' instead of waiting on a service that is down.
  return useQuery({ queryKey: ['results', 'summary'], queryFn: getResultsSummary, retry: false });
}
