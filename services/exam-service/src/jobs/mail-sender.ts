import type { FastifyBaseLogger } from 'fastify';

/**
 * Drains the mail queue (modules/mail) every `intervalMs`, and at once when a mail is queued on this
 * replica. Runs never overlap; a request to run during one runs again right after it, so a mail queued
 * mid-run is not left for the next tick. Retries of failed sends come due on their own and are picked up
 * by whichever replica ticks first.
 */
export function startMailSender(
  sendDue: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger; onEnqueued(listener: () => void): () => void },
) {
  let running: Promise<void> | undefined;
  let again = false;
  const tick = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = sendDue()
      .then((count) => {
        if (count > 0) opts.log.info({ count }, 'mail sent');
      })
      .catch((err: unknown) => opts.log.error({ err }, 'mail sender run failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const unsubscribe = opts.onEnqueued(tick);
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      unsubscribe();
      clearInterval(timer);
      again = false;
      await running;
    },
  };
}
