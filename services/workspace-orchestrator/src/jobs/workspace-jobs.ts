import { totalmem } from 'node:os';
import type { Config } from '../config.ts';
import { adoptWorkspaces } from './adoption.ts';
import { createFileHistoryJob, type FileHistoryJobOptions } from './file-history.ts';
import type { JobContext } from './job-context.ts';
import { reapWorkspaces, type ReaperOptions } from './reaper.ts';
import { createWarmPool, type WarmPoolOptions } from './warm-pool.ts';

export type WorkspaceJobOptions = {
  warmPool: WarmPoolOptions;
  reaper: ReaperOptions;
  fileHistory: FileHistoryJobOptions;
  /** Quiet time after the last warm hand-out before replacements start. */
  refillDelayMs: number;
  /** Whether the pool refill and the reaper run on their intervals (off: they run only when called). */
  background: boolean;
  warmPoolIntervalMs: number;
  reaperIntervalMs: number;
};

/** 80 % of this host's memory at 256 MiB per editor (config.ts WORKSPACE_HOST_CAPACITY). */
export function defaultHostCapacity(totalBytes = totalmem()): number {
  return Math.max(1, Math.floor((totalBytes * 0.8) / (256 * 1024 * 1024)));
}

export function workspaceJobOptions(config: Config): WorkspaceJobOptions {
  return {
    warmPool: {
      size: config.WARM_POOL_SIZE,
      types: config.WARM_POOL_TYPES,
      prewarm: {
        horizonSeconds: Math.round(config.PREWARM_HORIZON_MINUTES * 60),
        graceSeconds: Math.round(config.PREWARM_GRACE_MINUTES * 60),
        hostCapacity: config.WORKSPACE_HOST_CAPACITY || defaultHostCapacity(),
        hostCount: config.WORKSPACE_HOST_COUNT,
      },
    },
    reaper: {
      idleTimeoutMs: config.IDLE_TIMEOUT_SECONDS * 1000,
      startTimeoutMs: config.START_TIMEOUT_SECONDS * 1000,
      volumeGraceMs: config.WORKSPACE_VOLUME_GRACE_SECONDS * 1000,
      startFailureRetentionMs: config.START_FAILURE_RETENTION_DAYS * 24 * 3600_000,
    },
    fileHistory: {
      intervalMs: config.WORKSPACE_HISTORY_INTERVAL_SECONDS * 1000,
      batch: 4,
      // A look reads one workspace's folder: long past this, its replica is taken to have died.
      leaseMs: Math.max(60_000, config.WORKSPACE_HISTORY_INTERVAL_SECONDS * 4000),
    },
    refillDelayMs: config.WARM_POOL_REFILL_DELAY_MS,
    background: config.WORKSPACE_BACKGROUND,
    warmPoolIntervalMs: config.WARM_POOL_INTERVAL_SECONDS * 1000,
    reaperIntervalMs: config.REAPER_INTERVAL_SECONDS * 1000,
  };
}

/**
 * The orchestrator's background work, started by server.ts: re-adoption of this instance's containers,
 * then the warm pool (refilled on an interval and after each hand-out), the reaper and the workspaces' file
 * snapshots. `stop` clears the timers and waits for a running refill.
 */
export async function startWorkspaceJobs(ctx: JobContext, opts: WorkspaceJobOptions) {
  const warmPool = createWarmPool(ctx, opts.warmPool);
  // A claimed warm container is replaced in the background, after the burst of claims.
  ctx.service.setOnWarmClaimed(() => warmPool.refillSoon(opts.refillDelayMs));
  const adopted = await adoptWorkspaces(ctx).catch((err: unknown) => {
    ctx.log.warn({ err }, 're-adoption failed');
    return undefined;
  });
  if (adopted) ctx.log.info(adopted, 'workspace containers re-adopted');
  const timers: NodeJS.Timeout[] = [];
  const every = (intervalMs: number, work: () => Promise<unknown>, name: string) => {
    const timer = setInterval(
      () => void work().catch((err: unknown) => ctx.log.warn({ err }, `${name} failed`)),
      intervalMs,
    );
    timer.unref();
    timers.push(timer);
  };
  if (opts.background) {
    every(opts.warmPoolIntervalMs, () => warmPool.refill(), 'warm pool refill');
    every(opts.reaperIntervalMs, () => reapWorkspaces(ctx, opts.reaper), 'reaper');
    if (opts.fileHistory.intervalMs > 0) {
      const fileHistory = createFileHistoryJob(ctx, opts.fileHistory);
      every(opts.fileHistory.intervalMs, () => fileHistory.run(), 'file-history snapshots');
    }
    void warmPool.refill().catch(() => undefined);
  }
  return {
    warmPool,
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await warmPool.stop();
    },
  };
}
