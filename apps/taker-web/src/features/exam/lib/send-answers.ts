import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { listPending, markSynced } from './outbox.ts';
import { handleSendFailure, type SendContext } from './send-context.ts';

/** Browsers cap keepalive bodies at 64 KiB; larger answers go without it and are retried if cut off. */
const KEEPALIVE_LIMIT = 60_000;

/** Sends every answer the server has not acknowledged; false when a retryable failure stopped the run. */
export async function sendAnswers(ctx: SendContext): Promise<boolean> {
  const { db, attemptId, token } = ctx;
  if (ctx.isClosed()) return true;
  for (const entry of await listPending(db, attemptId)) {
    const body = { answer: entry.answer, seq: entry.seq };
    try {
      await apiRequest(api.answer(attemptId, entry.questionIndex), {
        method: 'PUT',
        token,
        body,
        keepalive: entry.answer.length < KEEPALIVE_LIMIT,
      });
      await markSynced(db, attemptId, entry.questionIndex, entry.seq);
    } catch (error) {
      const kind = handleSendFailure(ctx, error);
      if (kind === 'closed') return true;
      if (kind === 'retry') return false;
      // A request the server will never accept (bad input, lost rights): retrying cannot help.
      console.error('Answer rejected by the server', entry.questionIndex, error);
      await markSynced(db, attemptId, entry.questionIndex, entry.seq);
    }
  }
  return true;
}
