import { ReviewSchema, type Review } from '@exam/domain/practice';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { findStoredAttemptById, getTakerDb } from '../../../lib/taker-db.ts';

/**
 * What the review page can show: the review; the server's reason it is not open (403: no review, not released
 * yet, closed); or nothing, when this browser holds no credentials for the attempt.
 */
export type ReviewView =
  { status: 'open'; review: Review } | { status: 'refused'; message: string } | { status: 'no-credentials' };

export async function getReview(attemptId: string, signal?: AbortSignal): Promise<ReviewView> {
  const stored = await findStoredAttemptById(await getTakerDb(), attemptId);
  if (!stored) return { status: 'no-credentials' };
  try {
    return {
      status: 'open',
      review: await apiRequest(api.review(attemptId), { token: stored.token, schema: ReviewSchema, signal }),
    };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404))
      return { status: 'refused', message: error.userMessage };
    throw error;
  }
}

export function useReview(attemptId: string) {
  return useQuery({
    queryKey: ['attempt-review', attemptId],
    queryFn: ({ signal }: { signal: AbortSignal }) => getReview(attemptId, signal),
  });
}
