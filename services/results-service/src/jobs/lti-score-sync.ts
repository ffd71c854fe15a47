import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `syncScores` (one pass of the LTI score outbox) every `intervalMs` until stopped. Safe on several
 * replicas: each pass claims its rows FOR UPDATE SKIP LOCKED (modules/lti/score-sync.repository.ts).
 */
export function startLtiScoreSync(
  syncScores: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger },
) {
  return startPeriodic(syncScores, { ...opts, did: 'LTI scores sent', failed: 'LTI score sync failed' });
}
