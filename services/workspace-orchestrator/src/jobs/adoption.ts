import type { WorkspaceEngine } from '../engine/engine.ts';
import { availableEngine, type JobContext } from './job-context.ts';

export type Adoption = { adopted: string[]; removed: string[]; ended: string[]; removedVolumes: string[] };

/** Engine volumes of this instance without a record (on any host: names are unique) are removed; answers their names. */
async function removeUnrecordedVolumes(ctx: JobContext, engine: WorkspaceEngine): Promise<string[]> {
  const known = new Set((await ctx.repo.listKeptVolumes()).map((v) => v.name));
  const orphans = (await engine.listVolumes()).filter((name) => !known.has(name));
  for (const name of orphans) await engine.removeVolume(name).catch(() => undefined);
  return orphans;
}

/**
 * At start: containers labelled for this orchestrator that have a live row are kept (their row has
 * the address and editor cookie); containers without one are removed; live rows whose container is
 * gone are ended (their volumes stay with their attempts); volumes without a record are removed. Only
 * rows of this host are judged: another host's containers are invisible to this engine, not gone.
 */
export async function adoptWorkspaces(ctx: JobContext): Promise<Adoption> {
  const result: Adoption = { adopted: [], removed: [], ended: [], removedVolumes: [] };
  const engine = await availableEngine(ctx);
  if (!engine || engine.kind === 'local') return result;
  const containers = await engine.list();
  const host = await engine.hostId();
  const rows = new Map(
    (await ctx.repo.listLive())
      .filter((r) => r.backend === engine.kind && (r.host === null || r.host === host))
      .map((r) => [r.id, r]),
  );
  for (const container of containers) {
    const row = rows.get(container.id);
    if (row && container.running && row.handle === container.handle && row.status !== 'starting') {
      result.adopted.push(row.id);
      rows.delete(row.id);
      continue;
    }
    await engine.remove(container.handle);
    result.removed.push(container.id || container.handle);
  }
  for (const row of rows.values()) {
    await ctx.service.endRow(row, 'not found after a restart');
    result.ended.push(row.id);
  }
  result.removedVolumes = await removeUnrecordedVolumes(ctx, engine);
  return result;
}
