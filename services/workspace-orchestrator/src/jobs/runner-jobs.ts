import type { Config } from '../config.ts';
import {
  createRunnerWorker,
  startRunPruning,
  type RunnerWorkerContext,
  type RunnerWorkerOptions,
} from './runner-worker.ts';

export type RunnerJobOptions = RunnerWorkerOptions & { worker: boolean; retentionDays: number };

export function runnerJobOptions(config: Config): RunnerJobOptions {
  return {
    worker: config.RUNNER_WORKER,
    concurrency: config.RUNNER_CONCURRENCY,
    globalConcurrency: config.RUNNER_GLOBAL_CONCURRENCY,
    candidateSlots: config.RUNNER_CANDIDATE_SLOTS,
    referenceSlots: config.RUNNER_REFERENCE_SLOTS,
    maxRunMs: config.RUNNER_MAX_RUN_SECONDS * 1000,
    pollMs: config.RUNNER_POLL_MS,
    maxClaims: 2,
    retentionDays: config.RUNNER_RETENTION_DAYS,
  };
}

/**
 * The code runner's background work, started by server.ts: the worker executing queued runs (unless
 * RUNNER_WORKER is off) and the hourly pruning of old runs. `stop` waits for the runs in progress.
 */
export function startRunnerJobs(ctx: RunnerWorkerContext, opts: RunnerJobOptions) {
  const worker = createRunnerWorker(ctx, opts);
  const loop = opts.worker ? worker.start() : undefined;
  const pruning = startRunPruning(ctx, {
    intervalMs: 3600_000,
    retentionDays: opts.retentionDays,
    clock: ctx.clock,
    log: ctx.log,
  });
  return {
    worker,
    async stop() {
      await loop?.stop();
      await pruning.stop();
      await worker.drain();
    },
  };
}
