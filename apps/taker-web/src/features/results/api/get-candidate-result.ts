import { CandidateResultSchema, type CandidateResult } from '@exam/domain/result';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { findStoredAttemptById, getTakerDb } from '../../../lib/taker-db.ts';

/**
 * What the result page can show: the released result; the server's reason it may not be shown yet (403);
 * or nothing, when this browser holds no credentials for the attempt (the attempt token is the candidate's
 * only credential, docs/product.md#who-uses-it).
 */
export type CandidateResultView =
  | { status: 'released'; result: CandidateResult }
  | { status: 'withheld'; message: string }
  | { status: 'no-credentials' };

export async function getCandidateResult(attemptId: string, signal?: AbortSignal): Promise<CandidateResultView> {
  const stored = await findStoredAttemptById(await getTakerDb(), attemptId);
  if (!stored) return { status: 'no-credentials' };
  try {
    const result = await apiRequest(api.result(attemptId), {
      token: stored.token,
      schema: CandidateResultSchema,
      signal,
    });
    return { status: 'released', result };
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return { status: 'withheld', message: error.userMessage };
    throw error;
  }
}

export const candidateResultQueryOptions = (attemptId: string) => ({
  queryKey: ['candidate-result', attemptId],
  queryFn: ({ signal }: { signal: AbortSignal }) => getCandidateResult(attemptId, signal),
});

export function useCandidateResult(attemptId: string) {
  return useQuery(candidateResultQueryOptions(attemptId));
}
