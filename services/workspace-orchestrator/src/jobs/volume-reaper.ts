import type { VolumeRow } from '../db/schema.ts';
import type { JobContext } from './job-context.ts';

/**
 * Whether a volume nobody mounts may go: an unassigned one at once; an attempt's once the attempt is
 * closed and its files were collected, or the grace period after the attempt was first seen closed.
 * Undefined: decide nothing now (results-service did not answer).
 */
async function isDone(ctx: JobContext, volume: VolumeRow, graceMs: number): Promise<boolean | undefined> {
  if (!volume.attemptId) return true;
  let open: boolean;
  try {
    open = await ctx.directory.isAttemptOpen(volume.attemptId);
  } catch {
    return undefined;
  }
  if (open) return false;
  const seen = volume.closedSeenAt ?? ctx.clock.now();
  if (!volume.closedSeenAt) await ctx.repo.updateVolume(volume.name, { closedSeenAt: seen });
  return Boolean(volume.collectedAt) || ctx.clock.now().getTime() - seen.getTime() >= graceMs;
}

/**
 * The attempt's files live in a volume that outlives its containers, so nothing a candidate typed is
 * lost to a reload. This removes the volumes nobody will read again: unassigned ones without a live
 * container, collected ones of closed attempts, and uncollected ones whose attempt has been closed for
 * the grace period. Answers the names removed.
 */
export async function reapVolumes(ctx: JobContext, opts: { graceMs: number }): Promise<string[]> {
  const removed: string[] = [];
  const candidates = await ctx.repo.listKeptVolumes();
  const inUse = new Set((await ctx.repo.listLive()).map((row) => row.volume));
  for (const volume of candidates) {
    if (inUse.has(volume.name)) continue;
    if (!(await ctx.service.isOnThisHost(volume))) continue;
    if (!(await isDone(ctx, volume, opts.graceMs))) continue;
    try {
      await ctx.service.volumes.remove(volume);
      removed.push(volume.name);
    } catch {
      // still mounted by a container being removed: the next round takes it
    }
  }
  return removed;
}
