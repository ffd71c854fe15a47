import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs the reminder pass (modules/roster/notices.service.ts) every `intervalMs` until stopped. Runs
 * never overlap; a failure (results-service unreachable, say) is logged and the pass tried at the next
 * tick, and since entries are only marked reminded with their mail queued, nobody is skipped.
 */
export function startReminders(
  sendReminders: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger },
) {
  return startPeriodic(sendReminders, { ...opts, did: 'reminders queued', failed: 'reminder run failed' });
}
