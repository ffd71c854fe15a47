import { BulkResultsReportSchema, type BulkResultAction, type BulkResultsReport } from '@exam/domain/result';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { resultKeys } from './get-results.ts';

export type BulkResultsInput = { action: BulkResultAction; resultIds: string[] };

/** POST /api/results/bulk: one action on the chosen results, all or nothing. */
export function bulkResults(input: BulkResultsInput): Promise<BulkResultsReport> {
  return apiRequest(api.resultsBulk, { method: 'POST', body: input, schema: BulkResultsReportSchema });
}

export function useBulkResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkResults,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: resultKeys.all }),
  });
}
