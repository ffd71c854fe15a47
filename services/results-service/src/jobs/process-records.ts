import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `computeProcessRecords` (computes results.process of every pending submission, in a worker thread) every
 * `intervalMs`, and at once when a submission on this replica `wake`s it. Safe on several replicas: each result is
 * locked with FOR UPDATE SKIP LOCKED while it is computed (modules/submissions/process-records.repository.ts).
 * server.ts starts it.
 */
export function startProcessRecords(
  computeProcessRecords: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger; wake: (listener: () => void) => () => void },
) {
  return startPeriodic(computeProcessRecords, {
    ...opts,
    did: 'process records computed',
    failed: 'process-records run failed',
  });
}
