import { RegradeReportSchema, type RegradeReport } from '@exam/domain/result';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * POST /api/exams/{id}/regrade: re-scores every result with the exam's current keys and points. A dry run
 * only reports what would change; grader marks are never overwritten (docs/product.md#results-and-grading).
 */
export function regradeExam({ examId, dryRun }: { examId: string; dryRun: boolean }): Promise<RegradeReport> {
  return apiRequest(api.examRegrade(examId, dryRun), { method: 'POST', schema: RegradeReportSchema });
}

export function useRegradeExam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regradeExam,
    onSuccess: (report) => {
      if (!report.dryRun) void queryClient.invalidateQueries({ queryKey: ['results'] });
    },
  });
}
