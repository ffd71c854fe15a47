/** A logger as Fastify's (pino) is: enough for a background job. */
type JobLog = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * Runs `run` (one pass that returns how much it did) every `intervalMs` and once at the start, until stopped.
 * Runs never overlap: a tick during a run, or a `wake` (e.g. a mail queued on this replica), runs it again
 * right after, so work that arrived mid-run is not left for the next interval. A failure is logged and the
 * pass tried again at the next tick. The finalizer, the mail sender and the reminders are built on it.
 */
export function startPeriodic(
  run: () => Promise<number>,
  opts: {
    intervalMs: number;
    log: JobLog;
    /** Logged with the count when a pass did something ('mail sent'), and when one failed ('… run failed'). */
    did: string;
    failed: string;
    /** Subscribes to a signal that work is waiting; returns the unsubscribe. */
    wake?: (listener: () => void) => () => void;
  },
) {
  let running: Promise<void> | undefined;
  let again = false;
  const tick = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = run()
      .then((count) => {
        if (count > 0) opts.log.info({ count }, opts.did);
      })
      .catch((err: unknown) => opts.log.error({ err }, opts.failed))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const unsubscribe = opts.wake?.(tick);
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  tick();
  return {
    /** Stops the timer and waits for a run in progress. */
    async stop() {
      unsubscribe?.();
      clearInterval(timer);
      again = false;
      await running;
    },
  };
}
