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
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sendReminders()
      .then((count) => {
        if (count > 0) opts.log.info({ count }, 'reminders queued');
      })
      .catch((err: unknown) => opts.log.error({ err }, 'reminder run failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
