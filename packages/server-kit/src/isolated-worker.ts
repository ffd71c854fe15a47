import { AppError, type ErrorCode } from '@exam/domain/errors';
import { Worker } from 'node:worker_threads';

/**
 * Runs CPU- and memory-heavy parsing of uploaded files (course-material text, question imports) in worker threads,
 * so the service's event loop keeps answering while it runs, each with a heap limit (Node's `resourceLimits`) and a
 * wall-clock limit after which its worker is terminated. Workers are kept warm between files (starting one and
 * loading the parsers costs about a second on a busy machine) and replaced when one is stopped.
 * ARCHITECTURE.md "Reading uploaded files".
 */

/** PARSE_TIMEOUT_SECONDS, PARSE_MAX_HEAP_MB and PARSE_CONCURRENCY (config.ts). */
export type IsolationLimits = { timeoutMs: number; maxHeapMb: number; concurrency: number };

export type IsolatedFailure = 'timeout' | 'memory' | 'crashed';

/** The worker was stopped (too slow, out of its heap) or died; `reason` says which. */
export class IsolatedTaskError extends Error {
  readonly reason: IsolatedFailure;
  constructor(reason: IsolatedFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** What isolated-worker.thread.ts answers for one task, after `{ started: true }` once its module is loaded. */
export type TaskOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { code?: ErrorCode; message: string; issues?: AppError['issues'] } };

export type IsolatedRunner = {
  readonly limits: IsolationLimits;
  /**
   * Runs the default export of the task module at `task` (a file URL) on `input` in a worker; at most
   * `concurrency` at once, the rest wait their turn. An AppError the task throws is thrown here as one.
   */
  run<T>(task: URL, input: unknown): Promise<T>;
  /** Stops every worker (on app close). */
  close(): Promise<void>;
};

const THREAD = new URL('./isolated-worker.thread.ts', import.meta.url);

export function createIsolatedRunner(limits: IsolationLimits): IsolatedRunner {
  let slotsInUse = 0;
  const waiting: Array<() => void> = [];
  const idle: Worker[] = [];
  const all = new Set<Worker>();

  function spawn(): Worker {
    const worker = new Worker(THREAD, {
      // The young generation stays small so the old-generation limit is what bounds the heap.
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 16 },
    });
    all.add(worker);
    worker.once('exit', () => {
      all.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
    });
    return worker;
  }

  function runOn<T>(worker: Worker, task: URL, input: unknown): Promise<T> {
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (keep: boolean, done: () => void) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (keep) {
          worker.unref();
          idle.push(worker);
        } else void worker.terminate();
        done();
      };
      const onMessage = (outcome: TaskOutcome | { started: true }) => {
        if ('started' in outcome) {
          timer = setTimeout(
            () =>
              finish(false, () => reject(new IsolatedTaskError('timeout', `took longer than ${limits.timeoutMs} ms`))),
            limits.timeoutMs,
          );
          return;
        }
        finish(true, () => {
          if (outcome.ok) resolve(outcome.value as T);
          else if (outcome.error.code)
            reject(new AppError(outcome.error.code, outcome.error.message, outcome.error.issues));
          else reject(new Error(outcome.error.message));
        });
      };
      const onError = (error: Error & { code?: string }) =>
        finish(false, () =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new IsolatedTaskError('memory', `needed more than ${limits.maxHeapMb} MB of memory`)
              : new IsolatedTaskError('crashed', error.message),
          ),
        );
      const onExit = (code: number) =>
        finish(false, () => reject(new IsolatedTaskError('crashed', `the worker exited with code ${code}`)));
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ task: task.href, input });
    });
  }

  return {
    limits,
    async run<T>(task: URL, input: unknown): Promise<T> {
      if (slotsInUse >= limits.concurrency) await new Promise<void>((resume) => waiting.push(resume));
      else slotsInUse++;
      try {
        return await runOn<T>(idle.pop() ?? spawn(), task, input);
      } finally {
        const next = waiting.shift();
        if (next) next();
        else slotsInUse--;
      }
    },
    async close() {
      await Promise.all([...all].map((worker) => worker.terminate()));
    },
  };
}
