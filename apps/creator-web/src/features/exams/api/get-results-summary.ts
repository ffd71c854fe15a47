import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /api/results/summary (results-service): per-exam attempt counts for the dashboard. */
export const ExamResultsSummarySchema = z.object({
  examId: z.string(),
  started: z.number(),
  submitted: z.number(),
  graded: z.number(),
  avgScore: z.number().nullable().optional(),
});
export type ExamResultsSummary = z.infer<typeof ExamResultsSummarySchema>;
export const ResultsSummarySchema = z.object({ exams: z.array(ExamResultsSummarySchema) });

export function getResultsSummary(): Promise<ExamResultsSummary[]> {
  return apiRequest('/api/results/summary', { schema: ResultsSummarySchema }).then((data) => data.exams);
}

export function useResultsSummary() {
  // No retries: the dashboard shows '—' instead of waiting on a service that is down.
  return useQuery({ queryKey: ['results', 'summary'], queryFn: getResultsSummary, retry: false });
}
