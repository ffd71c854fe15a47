export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Exponential backoff from `baseMs`, capped at `maxMs`, with ±20 % jitter so tabs do not retry in step. */
export function backoffDelay(failures: number, baseMs: number, maxMs: number): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(exponential * (0.8 + Math.random() * 0.4));
}

export type RetryScheduler = {
  /** Counts a failed try and schedules the next one, unless one is already waiting or `canRetry` says no. */
  fail: () => void;
  /** Everything went out: the next failure waits the base delay again. */
  succeed: () => void;
  /** Drops the waiting try and the failure count (the caller tries at once instead). */
  reset: () => void;
  cancel: () => void;
};

/** One pending retry at a time, `run` after a backoff that grows with the failures since the last success. */
export function createRetryScheduler(options: {
  baseDelayMs: number;
  maxDelayMs: number;
  run: () => void;
  canRetry: () => boolean;
}): RetryScheduler {
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    fail() {
      failures += 1;
      if (!options.canRetry() || timer) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          options.run();
        },
        backoffDelay(failures, options.baseDelayMs, options.maxDelayMs),
      );
    },
    succeed() {
      failures = 0;
    },
    reset() {
      clearTimeout(timer);
      timer = undefined;
      failures = 0;
    },
    cancel() {
      clearTimeout(timer);
    },
  };
}
