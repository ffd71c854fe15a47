import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import { adoptWorkspaces } from '../jobs/adoption.ts';
import { createFileHistoryJob } from '../jobs/file-history.ts';
import { reapWorkspaces } from '../jobs/reaper.ts';
import { reapVolumes } from '../jobs/volume-reaper.ts';
import { createWarmPool } from '../jobs/warm-pool.ts';
import { workspaceJobOptions } from '../jobs/workspace-jobs.ts';

/**
 * The background jobs of server.ts, run by hand: a test calls the pool refill, the reaper or the
 * re-adoption where a running orchestrator would run them on a timer or at start.
 */
export function testJobs(app: FastifyInstance, deps: Pick<Deps, 'clock' | 'directory'>, config: Config) {
  const ctx = { ...app.workspaces, clock: deps.clock, directory: deps.directory, log: app.log };
  const opts = workspaceJobOptions(config);
  const warmPool = createWarmPool(ctx, opts.warmPool);
  const fileHistory = createFileHistoryJob(ctx, opts.fileHistory);
  return {
    refill: () => warmPool.refill(),
    reap: () => reapWorkspaces(ctx, opts.reaper),
    reapVolumes: () => reapVolumes(ctx, { graceMs: opts.reaper.volumeGraceMs }),
    adopt: () => adoptWorkspaces(ctx),
    snapshotFiles: () => fileHistory.run(),
    stop: () => warmPool.stop(),
  };
}
