import { plainRunnerUnavailable } from '@exam/domain/service-status';
import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';
import type { CodeRunRow } from '../db/schema.ts';
import { runDeadlineMs, type RunnerEngine } from '../engine/runner-engine.ts';
import type { ClaimRooms, RunnerRepository } from '../modules/runner/runner.repository.ts';
import type { RunnerService } from '../modules/runner/runner.service.ts';
import { runnerFailedReason, verdictsOf } from '../modules/runner/runner-verdicts.ts';

export type RunnerWorkerOptions = {
  /** Runs this replica executes at once. */
  concurrency: number;
  /** Runs executing at once across every replica; undefined: only the per-replica limit. */
  globalConcurrency?: number | undefined;
  /** How often an idle replica looks for runs queued on another one. */
  pollMs: number;
  /** Claims of one run before a failure on the runner's side is final. */
  maxClaims: number;
  /** Slots only candidates' own runs may take (at most concurrency - 1); 0 or unset: none reserved. */
  candidateSlots?: number;
  /** Creators' reference runs executing at once on this replica; unset: no limit of their own. */
  referenceSlots?: number;
  /** The cap on a whole run (RUNNER_MAX_RUN_SECONDS), which its lease follows. */
  maxRunMs?: number;
};

export type RunnerWorkerContext = {
  repo: RunnerRepository;
  service: RunnerService;
  engine: RunnerEngine;
  clock: { now(): Date };
  log: FastifyBaseLogger;
};

const RECOVER_EVERY_MS = 5000;

/** A run's lease: its longest possible duration and a margin, after which another replica takes it over. */
const leaseFor = (now: Date, maxRunMs?: number) => (row: CodeRunRow) =>
  new Date(now.getTime() + runDeadlineMs(row.job, maxRunMs) + 30_000);

/**
 * One worker per replica: each pass recovers runs whose replica died, then claims queued runs while fewer
 * than `concurrency` of its own are executing, and starts them without waiting. A run ending wakes the worker
 * for the next one; a run queued on this replica wakes it at once; runs queued elsewhere are found by the
 * poll. `drain` resolves when nothing is executing here (tests and shutdown).
 */
export function createRunnerWorker(ctx: RunnerWorkerContext, opts: RunnerWorkerOptions) {
  const active = new Map<string, Promise<void>>();
  /** The purpose of each run executing here: candidates keep their slots whatever else is queued. */
  const purposes = new Map<string, CodeRunRow['purpose']>();
  const candidateSlots = Math.min(opts.candidateSlots ?? 0, opts.concurrency - 1);

  /** This replica's room for each class of run (ARCHITECTURE.md, "Code runner"). */
  function rooms(): ClaimRooms {
    const executing = (purpose?: CodeRunRow['purpose']) =>
      [...purposes.values()].filter((p) => (purpose ? p === purpose : p !== 'check')).length;
    return {
      total: opts.concurrency - active.size,
      nonCandidate: opts.concurrency - candidateSlots - executing(),
      reference: (opts.referenceSlots ?? opts.concurrency) - executing('reference'),
    };
  }
  let wake: (() => void) | undefined;

  async function execute(row: CodeRunRow) {
    try {
      const reason = await ctx.engine.unavailableReason(row.job.language);
      if (reason) {
        // The run's reason is read by candidates and creators: plain words; the detail stays in the log.
        ctx.log.warn({ runId: row.id, kind: reason.kind, detail: reason.detail }, 'the code runner is unavailable');
        const plain = plainRunnerUnavailable(reason.kind, row.job.language);
        await ctx.repo.finish(row.id, 'unavailable', { verdicts: [], reason: plain }, ctx.clock.now());
        return;
      }
      const report = await ctx.engine.execute(row.job);
      await ctx.repo.finish(row.id, 'done', verdictsOf(row.job.tests, row.job.limits, report), ctx.clock.now());
    } catch (err) {
      // The error's text stays in the log: a database driver's message holds the statement and its
      // parameters (the tests' stdin and expected output), an engine's its internals. The run's reason is
      // read by candidates and creators, so it says only what happened and which run to look up.
      ctx.log.warn({ err, runId: row.id }, 'code run failed on the runner side');
      if (row.claims < opts.maxClaims) await ctx.repo.requeue(row.id);
      else
        await ctx.repo.finish(row.id, 'error', { verdicts: [], reason: runnerFailedReason(row.id) }, ctx.clock.now());
    }
  }

  let recoveredAt = 0;
  async function pass(): Promise<number> {
    const now = ctx.clock.now();
    // Leases are minutes long: looking for expired ones every few seconds is soon enough.
    if (now.getTime() - recoveredAt >= RECOVER_EVERY_MS) {
      recoveredAt = now.getTime();
      await ctx.repo.recoverExpired(now, opts.maxClaims);
    }
    const global = opts.globalConcurrency === undefined ? undefined : { cap: opts.globalConcurrency, candidateSlots };
    const rows = await ctx.repo.claim(now, rooms(), leaseFor(now, opts.maxRunMs), global);
    for (const row of rows) {
      purposes.set(row.id, row.purpose);
      const running = execute(row)
        .catch((err: unknown) => ctx.log.error({ err, runId: row.id }, 'code run could not be recorded'))
        .finally(() => {
          active.delete(row.id);
          purposes.delete(row.id);
          ctx.service.notifyFinished(row.id);
          wake?.();
        });
      active.set(row.id, running);
    }
    return rows.length;
  }

  return {
    pass,
    start() {
      return startPeriodic(pass, {
        intervalMs: opts.pollMs,
        log: ctx.log,
        did: 'code runs started',
        failed: 'code runner pass failed',
        wake: (listener) => {
          wake = listener;
          const off = ctx.service.onQueued(listener);
          return () => {
            wake = undefined;
            off();
          };
        },
      });
    },
    activeCount: () => active.size,
    async drain() {
      while (active.size) await Promise.all(active.values());
    },
  };
}

/** No run lives longer than this (50 tests at the 30 s CPU limit, and the compile): its container is a leftover. */
const STALE_CONTAINER_MS = 2 * 3600_000;

/**
 * Every `intervalMs`, deletes finished runs older than `retentionDays`, and removes runner containers a
 * replica that died mid-run left on the engine (when the engine answers).
 */
export function startRunPruning(
  ctx: Pick<RunnerWorkerContext, 'repo' | 'engine'>,
  opts: { intervalMs: number; retentionDays: number; clock: { now(): Date }; log: FastifyBaseLogger },
) {
  const pass = async () => {
    const pruned = await ctx.repo.prune(new Date(opts.clock.now().getTime() - opts.retentionDays * 24 * 3600_000));
    const removed = await ctx.engine.removeStale(STALE_CONTAINER_MS).catch(() => 0);
    return pruned + removed;
  };
  return startPeriodic(pass, {
    intervalMs: opts.intervalMs,
    log: opts.log,
    did: 'old code runs and leftover runner containers removed',
    failed: 'code run pruning failed',
  });
}
