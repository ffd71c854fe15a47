import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Every `intervalMs` (PRIVACY_JOB_INTERVAL_SECONDS): purges attempts past their exam's retention period in every
 * service and retries erasures a service has not completed (modules/privacy). Safe on several replicas: records are
 * claimed with FOR UPDATE SKIP LOCKED and a lease, and a purge's record id is derived from its attempts.
 */
export function startPrivacyJob(pass: () => Promise<number>, opts: { intervalMs: number; log: FastifyBaseLogger }) {
  return startPeriodic(pass, {
    intervalMs: opts.intervalMs,
    log: opts.log,
    did: "candidates' data erased (retention periods and retried requests)",
    failed: 'privacy job run failed',
  });
}
