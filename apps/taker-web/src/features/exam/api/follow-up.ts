import {
  FollowUpStateSchema,
  SavedFollowUpAnswerSchema,
  type FollowUpState,
  type SaveFollowUpAnswerSchema,
  type SubmitFollowUpAnswerSchema,
} from '@exam/domain/follow-up';
import type { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { computeClockOffset } from '../lib/clock.ts';

/** The follow-up questions after submit (packages/domain/src/follow-up.ts), with the attempt's token. */
export type AttemptCredentials = { attemptId: string; token: string };

/** A follow-up state with the clock offset measured on its own round trip, as the exam's timer uses it. */
export type TimedFollowUpState = { state: FollowUpState; clockOffsetMs: number };

async function timed(send: () => Promise<FollowUpState>): Promise<TimedFollowUpState> {
  const startedAt = Date.now();
  const state = await send();
  return { state, clockOffsetMs: computeClockOffset(state.serverNow, startedAt, Date.now()) };
}

/** GET …/follow-up: where the follow-up is (pending, asking with the current question, done, skipped, off). */
export function getFollowUp(attempt: AttemptCredentials): Promise<TimedFollowUpState> {
  return timed(() =>
    apiRequest(api.followUp(attempt.attemptId), { token: attempt.token, schema: FollowUpStateSchema }),
  );
}

/** POST …/follow-up/start: generates the questions (several seconds), or skips them with a note. */
export function startFollowUp(attempt: AttemptCredentials): Promise<TimedFollowUpState> {
  return timed(() =>
    apiRequest(api.followUpStart(attempt.attemptId), {
      method: 'POST',
      token: attempt.token,
      schema: FollowUpStateSchema,
    }),
  );
}

/** PUT …/follow-up/:n/answer: the draft as typed; the server keeps the highest seq (409 once the question closed). */
export function saveFollowUpAnswer(
  attempt: AttemptCredentials,
  n: number,
  body: z.infer<typeof SaveFollowUpAnswerSchema>,
): Promise<{ seq: number }> {
  return apiRequest(api.followUpAnswer(attempt.attemptId, n), {
    method: 'PUT',
    token: attempt.token,
    body,
    schema: SavedFollowUpAnswerSchema,
  });
}

/** POST …/follow-up/:n/submit: the final answer; answers the next question, or done. */
export function submitFollowUpAnswer(
  attempt: AttemptCredentials,
  n: number,
  body: z.infer<typeof SubmitFollowUpAnswerSchema>,
): Promise<TimedFollowUpState> {
  return timed(() =>
    apiRequest(api.followUpSubmit(attempt.attemptId, n), {
      method: 'POST',
      token: attempt.token,
      body,
      schema: FollowUpStateSchema,
    }),
  );
}
