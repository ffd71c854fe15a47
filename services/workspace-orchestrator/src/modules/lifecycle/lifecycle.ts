import { WORKSPACE_TYPES } from '@exam/domain/exam';
import type { FastifyBaseLogger } from 'fastify';
import type { EntryResolver } from '../../engine/catalogue.ts';
import { LABELS, type WorkspaceEngine } from '../../engine/engine.ts';
import type { SessionsRepository } from '../sessions/sessions.repository.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';

export type LifecycleOptions = {
  warmPoolSize: number;
  /** The types the pool keeps warm; empty or absent: all of them (each only while its image is present). */
  warmPoolTypes?: readonly string[];
  idleTimeoutMs: number;
  startTimeoutMs: number;
  /** How many containers the pool starts at once (this machine has two cores). */
  fillConcurrency?: number;
};

/**
 * Background work: the warm pool, the reaper, and re-adoption at start. Everything it decides comes
 * from the database and the engine's labels, so any orchestrator process can pick it up after a restart.
 */
export function createLifecycle(
  repo: SessionsRepository,
  service: SessionsService,
  resolveEntry: EntryResolver,
  clock: { now(): Date },
  log: FastifyBaseLogger,
  opts: LifecycleOptions,
) {
  let refilling: Promise<number> | undefined;
  let stopped = false;
  let debounce: NodeJS.Timeout | undefined;

  async function availableEngine(): Promise<WorkspaceEngine | undefined> {
    try {
      return await service.activeEngine();
    } catch {
      return undefined;
    }
  }

  async function fillOne(engine: WorkspaceEngine, workspaceType: string) {
    const entry = resolveEntry(workspaceType);
    const row = await repo.insert(service.newRow(engine, workspaceType, 'none', {}));
    await service.volumes.record(row);
    await service.launch(engine, row, entry, { [LABELS.pool]: 'warm' }, 'warm');
  }

  /** Tops every workspace type whose image is present up to the pool size; answers how many were started. */
  async function refillOnce(): Promise<number> {
    if (opts.warmPoolSize === 0) return 0;
    const engine = await availableEngine();
    if (!engine || engine.kind !== 'docker') return 0;
    const missing: string[] = [];
    for (const workspaceType of opts.warmPoolTypes?.length ? opts.warmPoolTypes : WORKSPACE_TYPES) {
      let entry;
      try {
        entry = resolveEntry(workspaceType);
      } catch {
        continue;
      }
      if (await engine.entryUnavailableReason(entry)) continue;
      const have = await repo.countPool(workspaceType, engine.kind);
      for (let i = have; i < opts.warmPoolSize; i++) missing.push(workspaceType);
    }
    let started = 0;
    const workers = Array.from({ length: Math.min(opts.fillConcurrency ?? 2, missing.length) }, async () => {
      for (let type = missing.shift(); type && !stopped; type = missing.shift()) {
        try {
          await fillOne(engine, type);
          started++;
        } catch (err) {
          log.warn({ err, workspaceType: type }, 'warm pool start failed');
        }
      }
    });
    await Promise.all(workers);
    return started;
  }

  /** One refill at a time; callers share the running one. */
  function refill(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    refilling ??= refillOnce().finally(() => (refilling = undefined));
    return refilling;
  }

  return {
    refill,

    /**
     * After a warm container is handed out: refill once the burst is over, so starting replacements
     * does not compete for the CPU with the candidates being served right now.
     */
    refillSoon(delayMs: number) {
      if (stopped) return;
      clearTimeout(debounce);
      debounce = setTimeout(
        () => void refill().catch((err: unknown) => log.warn({ err }, 'warm pool refill failed')),
        delayMs,
      );
      debounce.unref();
    },

    /** Stops background work and waits for a running refill to finish its current start. */
    async stop() {
      stopped = true;
      clearTimeout(debounce);
      await refilling?.catch(() => undefined);
    },

    /**
     * Ends sessions idle past the timeout, sessions whose container died, and starts that never finished
     * (answers their ids); then removes the volumes nobody will read again.
     */
    async reap(): Promise<string[]> {
      const now = clock.now();
      const reaped: string[] = [];
      for (const row of await repo.listIdle(new Date(now.getTime() - opts.idleTimeoutMs))) {
        await service.endRow(row, 'idle timeout');
        reaped.push(row.id);
      }
      for (const row of await repo.listLive()) {
        const stuck = row.status === 'starting' && now.getTime() - row.createdAt.getTime() > opts.startTimeoutMs * 2;
        let dead = false;
        if (!stuck && row.status !== 'starting' && row.handle) {
          try {
            dead = !(await service.engineOf(row).isRunning(row.handle));
          } catch {
            continue; // engine unreachable: decide nothing now
          }
        }
        if (stuck || dead) {
          await service.endRow(row, stuck ? 'start never finished' : 'abandoned: the workspace stopped');
          reaped.push(row.id);
        }
      }
      await service.volumes.reap();
      return reaped;
    },

    /**
     * At start: containers labelled for this orchestrator that have a live row are kept (their row has
     * the address and editor cookie); containers without one are removed; live rows whose container is
     * gone are ended (their volumes stay with their attempts); volumes without a record are removed.
     */
    async adopt(): Promise<{ adopted: string[]; removed: string[]; ended: string[]; removedVolumes: string[] }> {
      const result = {
        adopted: [] as string[],
        removed: [] as string[],
        ended: [] as string[],
        removedVolumes: [] as string[],
      };
      const engine = await availableEngine();
      if (!engine || engine.kind !== 'docker') return result;
      const containers = await engine.list();
      const rows = new Map((await repo.listLive()).filter((r) => r.backend === 'docker').map((r) => [r.id, r]));
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
        await service.endRow(row, 'not found after a restart');
        result.ended.push(row.id);
      }
      result.removedVolumes = await service.volumes.removeUnrecorded(engine);
      return result;
    },
  };
}
export type Lifecycle = ReturnType<typeof createLifecycle>;
