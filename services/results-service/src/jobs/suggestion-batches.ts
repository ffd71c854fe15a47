import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `claimBatches` (one pass: claim every running suggestion batch no replica holds, and run it here in the
 * background) every `intervalMs`, and at once when a batch started on this replica `wake`s it. Safe on several
 * replicas: a batch is claimed with FOR UPDATE SKIP LOCKED under a lease its runner renews, so it runs on one replica
 * at a time, and one whose replica died or lost llm-gateway is taken over once its lease lapses
 * (modules/suggestions/suggestion-batches.repository.ts). server.ts starts it.
 */
export function startSuggestionBatches(
  claimBatches: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger; wake: (listener: () => void) => () => void },
) {
  return startPeriodic(claimBatches, {
    ...opts,
    did: 'suggestion batches claimed',
    failed: 'suggestion-batch pass failed',
  });
}
