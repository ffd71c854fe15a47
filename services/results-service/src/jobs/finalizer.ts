import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `finalizeExpired` (one pass that submits every attempt past its deadline and grace) every
 * `intervalMs` until stopped. A run never overlaps the previous one, and a failure is logged and retried
 * at the next tick. server.ts starts it; tests call the one-shot pass directly.
 */
export function startFinalizer(
  finalizeExpired: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger },
) {
  return startPeriodic(finalizeExpired, { ...opts, did: 'finalized expired attempts', failed: 'finalizer run failed' });
}
