import type { SubmitResponse } from '@exam/domain/attempt';
import { readSubmitResponse } from '@exam/domain/candidate-views';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { backoffDelay, sleep } from './sync-retry.ts';

/**
 * The submit is sent only once nothing is pending, so the result holds every answer and file this
 * device kept; while something cannot be sent it counts as a failed try. After the last try the
 * error goes to the caller and everything stays kept for the next one.
 */
export async function submitAttempt(options: {
  attemptId: string;
  token: string;
  /** Sends everything pending; true when nothing is left. */
  flush: () => Promise<boolean>;
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Runs as soon as the server acknowledges, before anything else can be sent. */
  onSubmitted: () => void;
}): Promise<SubmitResponse> {
  for (let attempt = 1; ; attempt += 1) {
    let failure: unknown;
    if (await options.flush()) {
      try {
        const result = readSubmitResponse(
          await apiRequest(api.submit(options.attemptId), { method: 'POST', token: options.token }),
        );
        options.onSubmitted();
        return result;
      } catch (error) {
        if (error instanceof ApiError && !error.isRetryable) throw error;
        failure = error;
      }
    } else {
      failure = new Error('Answers or files kept on this device could not be sent yet');
    }
    if (attempt >= options.attempts) throw failure;
    await sleep(backoffDelay(attempt, options.baseDelayMs, options.maxDelayMs));
  }
}
