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
  /** Starting editors ahead of availability windows; absent: the pool keeps `size` only. */
  prewarm?: PrewarmOptions;
};

export type PrewarmOptions = {
  /** How far ahead of a window's opening its editors start. */
  horizonSeconds: number;
  /** How long after the opening latecomers are still expected. */
  graceSeconds: number;
  /** Live containers this host holds at most: the pool never grows past what is left of it. */
  hostCapacity: number;
  /** Hosts sharing the demand (candidates land on any of them): each starts its share. */
  hostCount: number;
};

/**
 * Each pooled type's target on this host: `size`, plus, for every exam whose window opens within the horizon,
 * the candidates it expects who have not arrived yet (each host its share), all within what the host's
 * capacity leaves beside the workspaces candidates hold. Exams allowing package registries are left out: warm
 * containers sit on the internal bridge only, so those exams cold-start whatever the pool holds. `known` is
 * false when exam-service could not say: the targets are then the plain pool's, and nothing should be trimmed.
 */
export async function poolTargets(
  ctx: JobContext,
  pool: { host: string; backend: WorkspaceEngine['kind']; types: readonly string[] },
  opts: WarmPoolOptions,
): Promise<{ targets: Map<string, number>; known: boolean }> {
  const targets = new Map(pool.types.map((type) => [type, opts.size]));
  const prewarm = opts.prewarm;
  if (!prewarm || prewarm.horizonSeconds === 0) return { targets, known: true };
  let demand;
  try {
    demand = (await ctx.directory.workspaceDemand(prewarm.horizonSeconds, prewarm.graceSeconds)).filter(
      (d) => d.egress === 'none' && targets.has(d.workspaceType),
    );
  } catch (err) {
    // exam-service unreachable: keep the plain pool this round rather than shrinking a pre-started one.
    ctx.log.warn({ err }, 'workspace demand unavailable; the pool keeps what it has this round');
    return { targets, known: false };
  }
  const arrived = await ctx.repo.arrivedByExam(demand.map((d) => d.examId));
  const extra = new Map<string, number>();
  for (const d of demand) {
    const share = Math.ceil(Math.max(0, d.candidates - (arrived.get(d.examId) ?? 0)) / prewarm.hostCount);
    extra.set(d.workspaceType, (extra.get(d.workspaceType) ?? 0) + share);
  }
  let room = Math.max(0, prewarm.hostCapacity - (await ctx.repo.countAssignedOnHost(pool.host, pool.backend)));
  // The configured pool first, then the windows' demand, each within the room left.
  for (const [type, size] of targets) {
    const kept = Math.min(size, room);
    targets.set(type, kept);
    room -= kept;
  }
  for (const [type, wanted] of extra) {
    const added = Math.min(wanted, room);
    targets.set(type, (targets.get(type) ?? 0) + added);
    room -= added;
  }
  return { targets, known: true };
}

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
    if (opts.size === 0 && !opts.prewarm?.horizonSeconds) return 0;
    const engine = await availableEngine(ctx);
    if (!engine || engine.kind === 'local') return 0;
    const pool = { host: await engine.hostId(), backend: engine.kind, types: await poolTypes(ctx, engine, opts) };
    const { targets, known } = await poolTargets(ctx, pool, opts);
    if (known) await trim(pool, targets);
    const missing = await ctx.repo.reservePool({ ...pool, targets }, (type) =>
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

  /**
   * Ends ready pool containers past a type's target: a window's latecomers stopped coming, or candidates arrived
   * through cold starts, so what was started for them would only hold memory.
   */
  async function trim(
    pool: { host: string; backend: WorkspaceEngine['kind'] },
    targets: ReadonlyMap<string, number>,
  ): Promise<void> {
    for (const [type, target] of targets) {
      const warm = await ctx.repo.listWarm(type, pool.host, pool.backend);
      for (const row of warm.slice(0, Math.max(0, warm.length - target))) {
        await ctx.service.endRow(row, 'warm pool trimmed: more ready than expected candidates');
      }
    }
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
