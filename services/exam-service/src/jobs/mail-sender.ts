import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Drains the mail queue (adapters/mail) every `intervalMs`, and at once when a mail is queued on this
 * replica. Runs never overlap; a request to run during one runs again right after it, so a mail queued
 * mid-run is not left for the next tick. Retries of failed sends come due on their own and are picked up
 * by whichever replica ticks first.
 */
export function startMailSender(
  sendDue: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger; onEnqueued(listener: () => void): () => void },
) {
  return startPeriodic(sendDue, {
    intervalMs: opts.intervalMs,
    log: opts.log,
    did: 'mail sent',
    failed: 'mail sender run failed',
    wake: opts.onEnqueued,
  });
}
