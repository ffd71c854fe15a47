import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { gradingKeys } from './grade-result.ts';

/** DELETE /api/results/{id}: the result with its attempt (owners and editors; results-service records it in the audit log). */
export function deleteResult(resultId: string): Promise<{ id: string }> {
  return apiRequest(api.result(resultId), { method: 'DELETE', schema: z.object({ id: z.string() }) });
}

export function useDeleteResult(resultId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteResult(resultId),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: gradingKeys.detail(resultId) });
      await queryClient.invalidateQueries({ queryKey: gradingKeys.results });
    },
  });
}
