import { WorkspaceStartFailureResponseSchema, type WorkspaceStartFailure } from '@exam/domain/workspace';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Why the attempt's coding workspace did not start; null when it started (or the exam has none). */
export async function getWorkspaceStartFailure(attemptId: string): Promise<WorkspaceStartFailure | null> {
  const { failure } = await apiRequest(api.workspaceStartFailure(attemptId), {
    schema: WorkspaceStartFailureResponseSchema,
  });
  return failure;
}

export function useWorkspaceStartFailure(attemptId: string) {
  return useQuery({
    queryKey: ['workspace-start-failure', attemptId],
    queryFn: () => getWorkspaceStartFailure(attemptId),
    enabled: attemptId !== '',
  });
}
