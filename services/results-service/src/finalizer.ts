import type { FastifyInstance } from 'fastify';

/**
 * Runs the finalizer every `intervalMs` until the app closes. A run never overlaps the previous one,
 * and a failure is logged and retried at the next tick.
 */
export function startFinalizer(app: FastifyInstance, intervalMs: number) {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = app
      .finalizeExpired()
      .then((count) => {
        if (count > 0) app.log.info({ count }, 'finalized expired attempts');
      })
      .catch((err: unknown) => app.log.error({ err }, 'finalizer run failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
