import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { peekEvents, removeEvents } from './outbox.ts';
import { classifyFailure, type SendContext } from './send-context.ts';

const EVENT_BATCH = 200;

/**
 * Sends the proctoring events in batches, oldest first; false when a retryable failure stopped the run.
 * A batch the server refuses for any other reason (a closed attempt included) is dropped: events are a
 * record, never a reason to close the attempt.
 */
export async function sendEvents(ctx: SendContext): Promise<boolean> {
  const { db, attemptId, token } = ctx;
  for (;;) {
    if (ctx.isClosed()) return true;
    const batch = await peekEvents(db, attemptId, EVENT_BATCH);
    if (batch.length === 0) return true;
    try {
      await apiRequest(api.events(attemptId), {
        method: 'POST',
        token,
        body: { events: batch.map((row) => row.event) },
      });
    } catch (error) {
      if (classifyFailure(error) === 'retry') {
        ctx.noteFailure(error);
        return false;
      }
      console.error('Proctoring events rejected by the server', error);
    }
    await removeEvents(
      db,
      batch.map((row) => row.id),
    );
  }
}
