import type { TakerDb } from '../../../lib/taker-db.ts';
import { listPending } from './outbox.ts';
import { sendAnswers } from './send-answers.ts';
import type { SendContext } from './send-context.ts';
import { sendEvents } from './send-events.ts';
import { sendUploads } from './send-uploads.ts';
import type { RetryScheduler } from './sync-retry.ts';
import type { SyncState } from './sync-state.ts';
import { listUploads } from './uploads.ts';

const pendingCount = async (db: TakerDb, attemptId: string) =>
  (await listPending(db, attemptId)).length + (await listUploads(db, attemptId)).length;

/**
 * Returns `drain`: sends answers first, then files, then events; a channel that must retry holds back
 * the ones after it. One drain runs at a time, each waiting for the one before it whatever its outcome.
 * Resolves true when everything went out.
 */
export function createDrain(ctx: SendContext, state: SyncState, retry: RetryScheduler): () => Promise<boolean> {
  let chain: Promise<boolean> = Promise.resolve(true);

  async function drainOnce(): Promise<boolean> {
    const answersDone = await sendAnswers(ctx);
    const uploadsDone = answersDone ? await sendUploads(ctx) : false;
    const eventsDone = uploadsDone ? await sendEvents(ctx) : false;
    const done = answersDone && uploadsDone && eventsDone;
    if (done) {
      retry.succeed();
      state.networkBack();
      const left = state.isClosed() ? 0 : await pendingCount(ctx.db, ctx.attemptId);
      state.setStatus(left === 0 ? 'saved' : state.busyStatus());
    }
    return done;
  }

  return () => {
    chain = chain.then(drainOnce, drainOnce);
    return chain;
  };
}
