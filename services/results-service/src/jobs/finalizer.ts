import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `finalizeExpired` (one pass that submits every attempt past its deadline and grace) every
 * `intervalMs` until stopped. A run never overlaps the previous one, and a failure is logged and retried
 * at the next tick. server.ts starts it; tests call the one-shot pass directly.
 */
export function startFinalizer(
  finalizeExpired: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger },
) {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = finalizeExpired()
      .then((count) => {
        if (count > 0) opts.log.info({ count }, 'finalized expired attempts');
      })
      .catch((err: unknown) => opts.log.error({ err }, 'finalizer run failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  tick();
  return {
    /** Stops the timer and waits for a run in progress. */
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
