import { availableEngine, type JobContext } from './job-context.ts';

export type FileHistoryJobOptions = {
  /** WORKSPACE_HISTORY_INTERVAL_SECONDS in ms; 0: no snapshots are taken while workspaces run. */
  intervalMs: number;
  /** Workspaces one replica reads at once. */
  batch: number;
  /** How long a claimed workspace is left to the replica that claimed it before another may look. */
  leaseMs: number;
};

/**
 * Snapshots of running workspaces' files into their attempts' histories (modules/sessions/file-history.ts):
 * each round claims this host's workspaces whose next look is due, a batch at a time, until none is due. The
 * schedule lives in file_histories, so replicas share the work and one that dies mid-look is replaced when its
 * lease runs out. `run` is the round; a round still running when the timer fires again is awaited, not doubled.
 */
export function createFileHistoryJob(ctx: JobContext, opts: FileHistoryJobOptions) {
  let round: Promise<number> | undefined;

  async function once(): Promise<number> {
    const engine = await availableEngine(ctx);
    if (!engine) return 0;
    const on = { backend: engine.kind, host: await engine.hostId() };
    // Only what was due when the round began: a look pushes its workspace's next one past this.
    const start = ctx.clock.now();
    let looked = 0;
    for (;;) {
      const leaseUntil = new Date(ctx.clock.now().getTime() + opts.leaseMs);
      const due = await ctx.historyRepo.claimDue(on, start, leaseUntil, opts.batch);
      if (!due.length) return looked;
      await Promise.all(
        due
          .map(async (attemptId) => {
            const row = await ctx.repo.findLiveByAttempt(attemptId);
            const result = row ? await ctx.service.snapshot(row) : undefined;
            if (result) looked += 1;
          })
          .map((look) =>
            look.catch((err: unknown) =>
              ctx.log.warn({ err }, 'a workspace file snapshot failed; retried after its lease'),
            ),
          ),
      );
    }
  }

  return {
    /** One round; answers how many workspaces were read. */
    run(): Promise<number> {
      round ??= once().finally(() => (round = undefined));
      return round;
    },
  };
}
