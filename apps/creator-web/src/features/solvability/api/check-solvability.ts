import {
  LatestSolvabilityCheckSchema,
  SolvabilityCheckSchema,
  type SolvabilityCheck,
  type StartSolvabilityCheck,
} from '@exam/domain/solvability';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** How often a running check's progress is read again. */
export const SOLVABILITY_POLL_MS = 1500;

export const solvabilityKeys = { latest: (examId: string) => ['solvability', examId, 'latest'] as const };

export function getLatestSolvabilityCheck(examId: string): Promise<SolvabilityCheck | null> {
  return apiRequest(api.latestSolvabilityCheck(examId), { schema: LatestSolvabilityCheckSchema }).then(
    (body) => body.check,
  );
}

/** The exam's latest check; read again every SOLVABILITY_POLL_MS while it runs (any replica answers). */
export function useLatestSolvabilityCheck(examId: string) {
  return useQuery({
    queryKey: solvabilityKeys.latest(examId),
    queryFn: () => getLatestSolvabilityCheck(examId),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? SOLVABILITY_POLL_MS : false),
  });
}

export function useStartSolvabilityCheck(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartSolvabilityCheck) =>
      apiRequest(api.solvabilityChecks(examId), { method: 'POST', body, schema: SolvabilityCheckSchema }),
    onSuccess: (check) => queryClient.setQueryData(solvabilityKeys.latest(examId), check),
  });
}

export function useCancelSolvabilityCheck(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (checkId: string) =>
      apiRequest(api.cancelSolvabilityCheck(examId, checkId), { method: 'POST', schema: SolvabilityCheckSchema }),
    onSuccess: (check) => queryClient.setQueryData(solvabilityKeys.latest(examId), check),
  });
}
