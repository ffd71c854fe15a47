import { AppError, ErrorCode } from '@exam/domain/errors';
import type { AttemptLtiLink, LtiScoreRequest } from '@exam/domain/lti-ags';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { ClaimedSync, ScoreSyncRepository, SyncStep } from './score-sync.repository.ts';

export type ScoreSyncOptions = {
  /** The first retry's delay; each further failure doubles it, up to `backoffCapMs`. */
  backoffMs: number;
  backoffCapMs: number;
  /** Failed tries after which the row is marked failed (the creator may retry it). */
  maxTries: number;
  /** Rows one pass claims. */
  batch?: number;
  /** How long a claimed row is left to this replica before another may claim it again (longer than a send). */
  leaseMs?: number;
};

/** A send takes a token request and the LMS's answer, each bounded well under this. */
const DEFAULT_LEASE_MS = 120_000;

/** Delay before try `tries + 1` after `tries` failures: exponential, capped. */
export function backoffDelay(tries: number, opts: Pick<ScoreSyncOptions, 'backoffMs' | 'backoffCapMs'>) {
  return Math.min(opts.backoffMs * 2 ** Math.max(0, tries - 1), opts.backoffCapMs);
}

/** The AGS 2.0 Score for one outbox row (§3.4: a withdrawn release is "Pending" with no scoreGiven). */
export function scoreOf({ row, lti }: ClaimedSync & { lti: AttemptLtiLink }): LtiScoreRequest {
  return {
    platformId: lti.platformId,
    lineItemUrl: lti.lineItemUrl!,
    userId: lti.sub,
    ...(row.scoreGiven === null ? {} : { scoreGiven: row.scoreGiven }),
    scoreMaximum: row.scoreMaximum,
    activityProgress: 'Completed',
    gradingProgress: row.scoreGiven === null ? 'Pending' : 'FullyGraded',
    timestamp: row.scoredAt.toISOString(),
  };
}

/**
 * LTI score passback (ARCHITECTURE.md, "LTI Advantage: score passback and course rosters"): sends the outbox's due rows through exam-service, retrying with
 * capped exponential back-off, and lets the creator retry a score that failed.
 */
export function createScoreSyncService(
  repo: ScoreSyncRepository,
  deps: Pick<Deps, 'clock' | 'ltiScores'>,
  log: FastifyBaseLogger,
  opts: ScoreSyncOptions,
) {
  async function send({ row, lti }: ClaimedSync): Promise<SyncStep> {
    const tries = row.tries + 1;
    // An attempt without its link (gone, or never linked) has nowhere to send to.
    if (!lti?.lineItemUrl) return { state: 'failed', tries, lastError: 'The attempt has no LMS line item' };
    let failure: { message: string; retryable: boolean };
    try {
      const outcome = await deps.ltiScores.publish(scoreOf({ row, lti }));
      if (outcome.outcome === 'sent') return { state: 'sent', tries, lastError: null, syncedAt: deps.clock.now() };
      failure = outcome;
    } catch (err) {
      // exam-service itself did not answer: worth another try.
      failure = { message: err instanceof Error ? err.message : String(err), retryable: true };
    }
    log.warn({ resultId: row.resultId, tries, failure }, 'LTI score not sent');
    if (!failure.retryable || tries >= opts.maxTries) return { state: 'failed', tries, lastError: failure.message };
    return {
      tries,
      lastError: failure.message,
      nextTryAt: new Date(deps.clock.now().getTime() + backoffDelay(tries, opts)),
    };
  }

  return {
    /** One pass of the job: sends due scores; answers how many were sent. */
    async syncDue(): Promise<number> {
      const claimed = await repo.claim(deps.clock.now(), opts.batch ?? 10, opts.leaseMs ?? DEFAULT_LEASE_MS);
      let sent = 0;
      for (const c of claimed) {
        const step = await send(c);
        if ((await repo.finish(c.row, step, deps.clock.now())) && step.state === 'sent') sent++;
      }
      return sent;
    },

    /** The creator's retry of a failed score; 404 for a result that is not theirs or has no LMS score. */
    async retry(resultId: string, ownerId: string): Promise<void> {
      const outcome = await repo.retry(resultId, ownerId, deps.clock.now());
      if (outcome === 'not-found') throw new AppError(ErrorCode.NOT_FOUND, 'No LMS score for this result');
      if (outcome === 'not-failed')
        throw new AppError(ErrorCode.CONFLICT, 'Only a score the LMS did not take can be retried');
    },
  };
}
export type ScoreSyncService = ReturnType<typeof createScoreSyncService>;
