import { ResumeMessages } from '@exam/domain/attempt-binding';
import type { Deps, StartCounters } from '../../deps.ts';
import { clientBucket } from './client-bucket.ts';
import { RetryLaterError } from './retry-later.ts';

export type StartLimits = {
  perClient: { max: number; windowSeconds: number };
  perExam: { max: number; windowSeconds: number };
};

/**
 * Caps attempt starts per client address and per exam in fixed windows counted where every replica
 * counts (the database, or Redis with REDIS_URL), so all enforce the same limit. Resumes with this
 * browser's secret are not counted.
 */
export function createStartLimiter(counters: StartCounters, deps: Pick<Deps, 'clock'>, limits: StartLimits) {
  async function take(bucket: string, limit: StartLimits['perClient'], message: (seconds: number) => string) {
    const windowMs = limit.windowSeconds * 1000;
    const now = deps.clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const count = await counters.count(bucket, new Date(windowStart), windowMs);
    if (count > limit.max) throw new RetryLaterError(windowStart + windowMs - now, message);
  }

  return {
    /** Before the exam is looked up, so a flood costs exam-service nothing past the limit. */
    takeClient: (ip: string) => take(`client:${clientBucket(ip)}`, limits.perClient, ResumeMessages.startsPerClient),
    /**
     * Briefings (POST /api/attempts/briefing) per client, on the same limit but counted apart: every candidate
     * reads one before starting, and a lecture hall behind one address must not use up its starts on them.
     */
    takeBriefing: (ip: string) =>
      take(`briefing:${clientBucket(ip)}`, limits.perClient, ResumeMessages.startsPerClient),
    takeExam: (examId: string) => take(`exam:${examId}`, limits.perExam, ResumeMessages.startsPerExam),
    /** Deletes windows older than the longest one. */
    prune: () => {
      const longest = Math.max(limits.perClient.windowSeconds, limits.perExam.windowSeconds) * 1000;
      return counters.prune(new Date(deps.clock.now().getTime() - longest));
    },
  };
}
export type StartLimiter = ReturnType<typeof createStartLimiter>;
