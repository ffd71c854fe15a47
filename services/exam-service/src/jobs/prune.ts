import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';
import type { PruneRepository } from '../modules/housekeeping/prune.repository.ts';

/**
 * Every `intervalMs`, deletes sent or failed mail, ended sessions and spent reset links older than
 * `retentionDays` (modules/housekeeping), so those tables stay the size of the recent past.
 */
export function startPruning(
  repo: PruneRepository,
  opts: { intervalMs: number; retentionDays: number; clock: { now(): Date }; log: FastifyBaseLogger },
) {
  const pass = async () => {
    const before = new Date(opts.clock.now().getTime() - opts.retentionDays * 24 * 3600_000);
    const pruned = await repo.prune(before);
    return pruned.mails + pruned.sessions + pruned.resetLinks;
  };
  return startPeriodic(pass, {
    intervalMs: opts.intervalMs,
    log: opts.log,
    did: 'old mail, sessions and reset links pruned',
    failed: 'prune run failed',
  });
}
