import type { JobContext } from './job-context.ts';
import { reapVolumes } from './volume-reaper.ts';

export type ReaperOptions = { idleTimeoutMs: number; startTimeoutMs: number; volumeGraceMs: number };

/**
 * Ends sessions idle past the timeout, sessions whose container died, and starts that never finished
 * (answers their ids); then removes the volumes nobody will read again. Each host's orchestrators reap
 * that host's sessions only: this engine cannot remove, or see running, another host's containers.
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
  await reapVolumes(ctx, { graceMs: opts.volumeGraceMs });
  return reaped;
}
