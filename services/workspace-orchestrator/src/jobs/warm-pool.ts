import { WORKSPACE_TYPES } from '@exam/domain/exam';
import { LABELS, type WorkspaceEngine } from '../engine/engine.ts';
import { availableEngine, type JobContext } from './job-context.ts';

export type WarmPoolOptions = {
  size: number;
  /** The types the pool keeps warm; empty or absent: all of them (each only while its image is present). */
  types?: readonly string[];
  /** How many containers the pool starts at once (this machine has two cores). */
  fillConcurrency?: number;
};

/** The workspace types to start, one entry per missing container: each type whose image is present, up to the pool size. */
async function missingContainers(ctx: JobContext, engine: WorkspaceEngine, opts: WarmPoolOptions) {
  const missing: string[] = [];
  for (const workspaceType of opts.types?.length ? opts.types : WORKSPACE_TYPES) {
    let entry;
    try {
      entry = ctx.resolveEntry(workspaceType);
    } catch {
      continue;
    }
    if (await engine.entryUnavailableReason(entry)) continue;
    const have = await ctx.repo.countPool(workspaceType, engine.kind);
    for (let i = have; i < opts.size; i++) missing.push(workspaceType);
  }
  return missing;
}

async function startWarm(ctx: JobContext, engine: WorkspaceEngine, workspaceType: string) {
  const entry = ctx.resolveEntry(workspaceType);
  const row = await ctx.repo.insert(ctx.service.newRow(engine, workspaceType, 'none', {}));
  await ctx.service.volumes.record(row);
  await ctx.service.launch(engine, row, entry, { [LABELS.pool]: 'warm' }, 'warm');
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
    if (!engine || engine.kind !== 'docker') return 0;
    const missing = await missingContainers(ctx, engine, opts);
    let started = 0;
    const workers = Array.from({ length: Math.min(opts.fillConcurrency ?? 2, missing.length) }, async () => {
      for (let type = missing.shift(); type && !stopped; type = missing.shift()) {
        try {
          await startWarm(ctx, engine, type);
          started++;
        } catch (err) {
          ctx.log.warn({ err, workspaceType: type }, 'warm pool start failed');
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
