import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { ResumeMessages } from '@exam/domain/attempt-binding';
import { RosterMessages } from '@exam/domain/roster';
import type { Issue } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import type { Deps, StartCounters } from '../../deps.ts';
import { clientBucket } from './client-bucket.ts';
import { RetryLaterError } from './retry-later.ts';

export type LimitWindow = { max: number; windowSeconds: number };

export type StartLimits = {
  /** Every start from one address that is not a silent resume, for any exam: the flood ceiling, checked first. */
  perClient: LimitWindow;
  /** New attempts of one exam from everywhere (raised for an exam that expects more candidates). */
  perExam: LimitWindow;
  /** New attempts of one exam from one address (raised for an exam that expects more candidates). */
  perExamClient: LimitWindow;
  /** CIDR ranges (START_LIMIT_TRUSTED_NETWORKS) whose addresses are not counted per address. */
  trustedNetworks: string[];
  /** Wrong resume or unlock codes from one address, for any attempt. */
  resumeCodeFailuresPerClient: LimitWindow;
  /** Wrong access codes from one address, and for one exam from everywhere. */
  accessCodeFailuresPerClient: LimitWindow;
  accessCodeFailuresPerExam: LimitWindow;
};

/** How far above its expected cohort an exam's start allowances reach (retries, late-comers, a second device). */
export const COHORT_HEADROOM = 1.25;

/**
 * "10.0.0.0/8, 2001:db8::/32, 192.0.2.7" as a BlockList (a bare address is its own /32 or /128). A malformed
 * entry throws, so config.ts refuses it at start-up rather than silently trusting nothing.
 */
export function parseNetworks(networks: string[]): BlockList {
  const list = new BlockList();
  for (const entry of networks) {
    const [address = '', prefixText] = entry.split('/');
    const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    if (!type) throw new Error(`not an IP network: ${entry}`);
    const prefix = prefixText === undefined ? (type === 'ipv4' ? 32 : 128) : Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (type === 'ipv4' ? 32 : 128)) {
      throw new Error(`not an IP network: ${entry}`);
    }
    list.addSubnet(address, prefix, type);
  }
  return list;
}

/**
 * Caps attempt starts and code guessing in fixed windows counted where every replica counts (the database,
 * or Redis with REDIS_URL), so all enforce the same limit. Resumes with this browser's secret are not counted.
 *
 * Why these buckets (an exam hall of 300 behind one NAT must start together; a flood must still stop):
 * - An address is a building, not a person. So new attempts are counted per exam AND address (one address
 *   flooding exam A leaves exam B's hall alone; one flooding address cannot use up the allowance of the exam
 *   from the hall's address either, since the per-address allowance is below the per-exam one). The default
 *   lets 400 new attempts per exam and address in ten minutes, and an exam that says how many candidates it
 *   expects gets 1.25 times that.
 * - Roster exams are not counted per exam and address: exam-service admits only roster candidates, so the
 *   roster bounds their new attempts already, however many share an address.
 * - Refused tries are limited by their kind, not by spending the hall's start allowance: wrong access codes
 *   per address and per exam, wrong resume codes per address. A guesser at another address never locks the
 *   hall out; one in the same hall can only spend that address's guessing budget.
 * - Testing centres list their networks in START_LIMIT_TRUSTED_NETWORKS: their addresses skip every
 *   per-address start count (per-exam counts and guessing limits still hold, since guessing is guessing).
 */
export function createStartLimiter(counters: StartCounters, deps: Pick<Deps, 'clock'>, limits: StartLimits) {
  const trusted = parseNetworks(limits.trustedNetworks);
  const isTrusted = (ip: string) => {
    // An IPv4-mapped IPv6 address counts as the IPv4 address it carries, as clientBucket counts it.
    const bucket = clientBucket(ip);
    if (isIPv4(bucket)) return trusted.check(bucket, 'ipv4');
    const address = ip.split('%')[0] ?? ip;
    return isIPv6(address) && trusted.check(address, 'ipv6');
  };
  const windowOf = (limit: LimitWindow) => {
    const windowMs = limit.windowSeconds * 1000;
    const now = deps.clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    return { windowMs, windowStart, retryMs: windowStart + windowMs - now };
  };

  async function take(bucket: string, limit: LimitWindow, message: (seconds: number) => string) {
    const { windowMs, windowStart, retryMs } = windowOf(limit);
    const count = await counters.count(bucket, new Date(windowStart), windowMs);
    if (count > limit.max) throw new RetryLaterError(retryMs, message);
  }

  /** 429 when the bucket already holds `max` failures in this window; counts nothing. */
  async function refuseWhenSpent(
    bucket: string,
    limit: LimitWindow,
    message: (seconds: number) => string,
    issues: Issue[],
  ) {
    const { windowMs, windowStart, retryMs } = windowOf(limit);
    if ((await counters.peek(bucket, new Date(windowStart), windowMs)) >= limit.max) {
      throw new RetryLaterError(retryMs, message, issues);
    }
  }
  const fail = async (bucket: string, limit: LimitWindow) => {
    const { windowMs, windowStart } = windowOf(limit);
    await counters.count(bucket, new Date(windowStart), windowMs);
  };

  /** The exam's expected cohort, when its creator gave one (the coding workspace's expected candidates). */
  const scaled = (limit: LimitWindow, exam: InternalExam): LimitWindow => {
    const expected = exam.codingWorkspace.expectedCandidates ?? 0;
    return { ...limit, max: Math.max(limit.max, Math.ceil(expected * COHORT_HEADROOM)) };
  };

  const resumeIssue = [{ path: 'resumeCode', message: 'Too many wrong resume codes from your network' }];
  const accessIssue = [{ path: 'accessCode', message: 'Too many wrong access codes' }];

  return {
    isTrusted,
    /** Before the exam is looked up, so a flood costs exam-service nothing past the limit. */
    takeClient: async (ip: string) => {
      if (!isTrusted(ip)) await take(`client:${clientBucket(ip)}`, limits.perClient, ResumeMessages.startsPerClient);
    },
    /**
     * Briefings (POST /api/attempts/briefing) per client, on the same limit but counted apart: every candidate
     * reads one before starting, and a lecture hall behind one address must not use up its starts on them.
     */
    takeBriefing: async (ip: string) => {
      if (!isTrusted(ip)) await take(`briefing:${clientBucket(ip)}`, limits.perClient, ResumeMessages.startsPerClient);
    },
    /** One new attempt, after admission: per exam, and per exam and address unless roster or trusted. */
    takeExam: async (exam: InternalExam, ip: string) => {
      // The address's own bucket first: a start it refuses is not counted against the exam's allowance.
      if (exam.access !== 'roster' && !isTrusted(ip)) {
        await take(
          `exam-client:${exam.id}:${clientBucket(ip)}`,
          scaled(limits.perExamClient, exam),
          ResumeMessages.startsPerClient,
        );
      }
      await take(`exam:${exam.id}`, scaled(limits.perExam, exam), ResumeMessages.startsPerExam);
    },
    resumeCodes: {
      check: (ip: string) =>
        refuseWhenSpent(
          `resume-fail:${clientBucket(ip)}`,
          limits.resumeCodeFailuresPerClient,
          ResumeMessages.tooMany,
          resumeIssue,
        ),
      fail: (ip: string) => fail(`resume-fail:${clientBucket(ip)}`, limits.resumeCodeFailuresPerClient),
    },
    accessCodes: {
      check: async (examId: string, ip: string) => {
        await refuseWhenSpent(
          `access-fail-exam:${examId}`,
          limits.accessCodeFailuresPerExam,
          RosterMessages.tooManyCodes,
          accessIssue,
        );
        await refuseWhenSpent(
          `access-fail:${clientBucket(ip)}`,
          limits.accessCodeFailuresPerClient,
          RosterMessages.tooManyCodes,
          accessIssue,
        );
      },
      fail: async (examId: string, ip: string) => {
        await fail(`access-fail-exam:${examId}`, limits.accessCodeFailuresPerExam);
        await fail(`access-fail:${clientBucket(ip)}`, limits.accessCodeFailuresPerClient);
      },
    },
    /** Deletes windows older than the longest one. */
    prune: () => {
      const longest =
        Math.max(
          ...[
            limits.perClient,
            limits.perExam,
            limits.perExamClient,
            limits.resumeCodeFailuresPerClient,
            limits.accessCodeFailuresPerClient,
            limits.accessCodeFailuresPerExam,
          ].map((l) => l.windowSeconds),
        ) * 1000;
      return counters.prune(new Date(deps.clock.now().getTime() - longest));
    },
  };
}
export type StartLimiter = ReturnType<typeof createStartLimiter>;
