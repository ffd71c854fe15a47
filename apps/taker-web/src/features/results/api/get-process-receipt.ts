import { ProcessReceiptSchema, type ProcessReceipt } from '@exam/domain/timeline';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { findStoredAttemptById, getTakerDb } from '../../../lib/taker-db.ts';

/**
 * The candidate's summary of how they wrote their answers and its signed receipt, for the attempt this browser
 * took (the attempt token is the candidate's only credential); null when this browser holds none.
 */
export async function getProcessReceipt(attemptId: string, signal?: AbortSignal): Promise<ProcessReceipt | null> {
  const stored = await findStoredAttemptById(await getTakerDb(), attemptId);
  if (!stored) return null;
  return apiRequest(api.receipt(attemptId), { token: stored.token, schema: ProcessReceiptSchema, signal });
}

/** Tried a few times: the receipt is made with the result, just as the completion page opens. */
export function useProcessReceipt(attemptId: string | undefined) {
  return useQuery({
    queryKey: ['process-receipt', attemptId],
    queryFn: ({ signal }) => getProcessReceipt(attemptId ?? '', signal),
    enabled: Boolean(attemptId),
    retry: 2,
    retryDelay: 1000,
    staleTime: Infinity,
  });
}
