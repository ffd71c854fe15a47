import { availableEngine, type JobContext } from './job-context.ts';
import { reapVolumes } from './volume-reaper.ts';

export type ReaperOptions = {
  idleTimeoutMs: number;
  startTimeoutMs: number;
  volumeGraceMs: number;
  /** How long a start-failure record is kept after its last failed try. */
  startFailureRetentionMs: number;
};

/**
 * Ends sessions idle past the timeout, sessions whose container died, and starts that never finished
 * (answers their ids); then removes the volumes nobody will read again. Each host's orchestrators reap
 * that host's sessions only: this engine cannot remove, or see running, another host's containers.
 * Start-failure records past their retention go too (any replica may delete them).
 */
export async function reapWorkspaces(ctx: JobContext, opts: ReaperOptions): Promise<string[]> {
  const now = ctx.clock.now();
  const reaped: string[] = [];
  for (const row of await ctx.repo.listIdle(new Date(now.getTime() - opts.idleTimeoutMs))) {
    if (!(await ctx.service.isOnThisHost(row))) continue;
    await ctx.service.endRow(row, 'idle timeout');
    reaped.push(row.id);
  }
  for (const row of await ctx.repo.listLive()) {
    if (!(await ctx.service.isOnThisHost(row))) continue;
    const stuck = row.status === 'starting' && now.getTime() - row.createdAt.getTime() > opts.startTimeoutMs * 2;
    let dead = false;
    if (!stuck && row.status !== 'starting' && row.handle) {
      try {
        dead = !(await ctx.service.engineOf(row).isRunning(row.handle));
      } catch {
        continue; // engine unreachable: decide nothing now
      }
    }
    if (stuck || dead) {
      await ctx.service.endRow(row, stuck ? 'start never finished' : 'abandoned: the workspace stopped');
      reaped.push(row.id);
    }
  }
  await removeEndedContainers(ctx);
  await reapVolumes(ctx, { graceMs: opts.volumeGraceMs });
  await ctx.repo.pruneStartFailures(new Date(now.getTime() - opts.startFailureRetentionMs));
  return reaped;
}

/**
 * Containers on this host whose session was ended by a replica on another host (a candidate's end request
 * can land on any replica, whose engine cannot reach this container). Answers the sessions whose container went.
 */
export async function removeEndedContainers(ctx: JobContext): Promise<string[]> {
  const engine = await availableEngine(ctx);
  if (!engine || engine.kind === 'local') return [];
  const containers = (await engine.list()).filter((c) => c.id);
  const ended = new Set(await ctx.repo.listEndedAmong(containers.map((c) => c.id)));
  const removed: string[] = [];
  for (const container of containers) {
    if (!ended.has(container.id)) continue;
    await engine.remove(container.handle);
    removed.push(container.id);
  }
  return removed;
}
