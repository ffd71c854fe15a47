import { WORKSPACE_TYPES } from '@exam/domain/exam';
import type { WorkspaceRow } from '../db/schema.ts';
import { LABELS, type WorkspaceEngine } from '../engine/engine.ts';
import { availableEngine, type JobContext } from './job-context.ts';

export type WarmPoolOptions = {
  size: number;
  /** The types the pool keeps warm; empty or absent: all of them (each only while its image is present). */
  types?: readonly string[];
  /** How many containers the pool starts at once (this machine has two cores). */
  fillConcurrency?: number;
};

/** The workspace types the pool keeps warm whose image is present on this engine. */
async function poolTypes(ctx: JobContext, engine: WorkspaceEngine, opts: WarmPoolOptions) {
  const types: string[] = [];
  for (const workspaceType of opts.types?.length ? opts.types : WORKSPACE_TYPES) {
    let entry;
    try {
      entry = ctx.resolveEntry(workspaceType);
    } catch {
      continue;
    }
    if (!(await engine.entryUnavailableReason(entry))) types.push(workspaceType);
  }
  return types;
}

/** Starts a reserved row's container; false when the row was ended while it waited for its turn. */
async function startWarm(ctx: JobContext, engine: WorkspaceEngine, reserved: WorkspaceRow): Promise<boolean> {
  const row = await ctx.repo.beginStart(reserved.id, ctx.clock.now());
  if (!row) return false;
  await ctx.service.volumes.record(row);
  await ctx.service.launch(engine, row, ctx.resolveEntry(row.workspaceType), { [LABELS.pool]: 'warm' }, 'warm');
  return true;
}

/**
 * The warm pool: ready editor containers per workspace type, handed out by create before any cold start.
 * `refill` tops it up (server.ts on an interval, tests by hand); `refillSoon` after a hand-out.
 */
export function createWarmPool(ctx: JobContext, opts: WarmPoolOptions) {
  let refilling: Promise<number> | undefined;
  let stopped = false;
  let debounce: NodeJS.Timeout | undefined;

  /** Tops every workspace type whose image is present up to the pool size; answers how many were started. */
  async function refillOnce(): Promise<number> {
    if (opts.size === 0) return 0;
    const engine = await availableEngine(ctx);
    if (!engine || engine.kind === 'local') return 0;
    const pool = { host: await engine.hostId(), backend: engine.kind, size: opts.size };
    const missing = await ctx.repo.reservePool({ ...pool, types: await poolTypes(ctx, engine, opts) }, (type) =>
      ctx.service.newRow(engine, type, 'none', {}),
    );
    let started = 0;
    const workers = Array.from({ length: Math.min(opts.fillConcurrency ?? 2, missing.length) }, async () => {
      for (let row = missing.shift(); row; row = missing.shift()) {
        // Stopping: a reserved row nobody will start is ended, so it no longer counts towards the pool.
        if (stopped) {
          // Unreachable database: the reaper ends it later as a start that never finished.
          await ctx.repo
            .markEnded(row.id, ctx.clock.now(), 'the orchestrator stopped before starting it')
            .catch(() => undefined);
          continue;
        }
        try {
          if (await startWarm(ctx, engine, row)) started++;
        } catch (err) {
          ctx.log.warn({ err, workspaceType: row.workspaceType }, 'warm pool start failed');
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
        () => void refill().catch((err: unknown) => ctx.log.warn({ err }, 'warm pool refill failed')),
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
  };
}
export type WarmPool = ReturnType<typeof createWarmPool>;
