import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';
import type { PruneRepository } from './prune.repository.ts';

/**
 * Every `intervalMs`, deletes sent or failed mail, ended sessions and spent reset links older than
 * `retentionDays` (jobs/prune.repository.ts), so those tables stay the size of the recent past; and LTI login states,
 * launch tickets and spent nonces once they have expired (modules/lti), which are worthless from then on.
 */
export function startPruning(
  repo: PruneRepository,
  opts: {
    intervalMs: number;
    retentionDays: number;
    clock: { now(): Date };
    log: FastifyBaseLogger;
    pruneLtiExpired?: (now: Date) => Promise<number>;
  },
) {
  const pass = async () => {
    const now = opts.clock.now();
    const before = new Date(now.getTime() - opts.retentionDays * 24 * 3600_000);
    const pruned = await repo.prune(before);
    const lti = opts.pruneLtiExpired ? await opts.pruneLtiExpired(now) : 0;
    return pruned.mails + pruned.sessions + pruned.resetLinks + lti;
  };
  return startPeriodic(pass, {
    intervalMs: opts.intervalMs,
    log: opts.log,
    did: 'old mail, sessions, reset links and expired LTI logins pruned',
    failed: 'prune run failed',
  });
}
