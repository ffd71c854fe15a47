import type { AuditStatus } from '@exam/domain/assistant-audit';
import type { TokenUsage } from '@exam/domain/llm';
import type { LlmClient, ProviderRequest } from '../../adapters/providers/types.ts';
import type { Probe } from '../chat/chat.service.ts';
import type { GradingUsageRepository } from '../grading/grading-usage.repository.ts';
import { taskKey, type AuditPlan, type AuditTask } from './audit-plan.ts';
import { reportItems, type AttemptRecord } from './audit-report.ts';
import type { AuditProgress, AuditRepository, LeaseState } from './audit.repository.ts';
import type { AuditKeys } from './leak-detection.ts';
import { AttemptAborted, runAttempt, type CandidateGuard } from './run-attempt.ts';

/** One configuration's assistant, ready to ask: its probe and the guard its candidates' chat would run. */
export type AuditTarget = { probe: Probe; guardFor: (questionIndex: number) => CandidateGuard };

export type AuditRunContext = {
  auditId: string;
  examId: string;
  leaseOwner: string;
  plan: AuditPlan;
  /** Indexed by configuration. */
  targets: AuditTarget[];
  keysFor: (questionIndex: number) => AuditKeys;
  concurrency: number;
  /** The run's token cap: it stops as budget-exhausted once its recorded attempts spent this many. */
  maxTokens: number;
  /** The attempts already recorded (a resumed run), skipped and counted. */
  recorded: AttemptRecord[];
  /** Aborted when this replica shuts down. */
  shutdown: AbortSignal;
};

export type AuditRunDeps = {
  repo: AuditRepository;
  gradingUsage: Pick<GradingUsageRepository, 'addSpend'>;
  llm: LlmClient;
  clock: { now(): Date };
  estimate: (request: ProviderRequest, output: string) => TokenUsage;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
};

export type AuditLeaseOptions = { leaseMs: number; heartbeatMs: number };

/** 'error': a worker failed (not the provider: the database), and the others stop with it. */
type StopReason = 'cancel' | 'lost' | 'shutdown' | 'error';

export const AuditRunMessages = {
  allFailed: (reason: string) => `The assistant answered none of the audit's attempts: ${reason}`,
  internal: 'The audit stopped on an internal error.',
} as const;

/**
 * Runs an audit to its end with at most `concurrency` attempts, so provider calls, in flight (each attempt's turns
 * go one after another). Each finished attempt is recorded in audit_attempts and the row's report recomputed from
 * all of them; the lease is renewed every heartbeat, which is also when a cancel set on any replica is seen. On
 * this replica's shutdown the run lets its lease lapse at once, and the next resume pass of any replica goes on
 * with the attempts not yet recorded.
 */
export async function runAudit(ctx: AuditRunContext, deps: AuditRunDeps, opts: AuditLeaseOptions): Promise<void> {
  const { repo } = deps;
  const stopper = new AbortController();
  const stop = (reason: StopReason) => {
    if (!stopper.signal.aborted) stopper.abort(reason);
  };
  const onShutdown = () => stop('shutdown');
  if (ctx.shutdown.aborted) onShutdown();
  else ctx.shutdown.addEventListener('abort', onShutdown, { once: true });
  const leaseUntil = () => new Date(deps.clock.now().getTime() + opts.leaseMs);
  const obey = (state: LeaseState) => {
    if (state.kind === 'lost') stop('lost');
    else if (state.cancelRequested) stop('cancel');
  };
  let renewing: Promise<void> = Promise.resolve();
  const heartbeat = setInterval(() => {
    renewing = repo
      .renewLease(ctx.auditId, ctx.leaseOwner, leaseUntil())
      .then(obey, (err: unknown) => deps.log.error({ err, auditId: ctx.auditId }, 'could not renew the audit lease'));
  }, opts.heartbeatMs);
  heartbeat.unref();
  /** No renewal may land after the lease is released: on a pool of connections it could overtake the release. */
  const stopHeartbeat = async () => {
    clearInterval(heartbeat);
    await renewing;
  };

  const records = new Map(ctx.recorded.map((r) => [taskKey(r), r]));
  const progress = (): AuditProgress => {
    const all = [...records.values()];
    return {
      callsUsed: all.reduce((n, r) => n + r.calls, 0),
      tokensUsed: all.reduce((n, r) => n + r.tokens, 0),
      progressDone: all.length,
      items: reportItems(ctx.plan.items, all),
    };
  };
  // Progress writes one at a time, each with everything recorded by then.
  let saving = Promise.resolve();
  const save = () => {
    saving = saving.then(() => repo.saveProgress(ctx.auditId, ctx.leaseOwner, progress(), leaseUntil())).then(obey);
    return saving;
  };

  const pending = ctx.plan.tasks.filter((t) => !records.has(taskKey({ ...t, attemptId: t.attempt.id })));
  let next = 0;
  let outOfBudget = false;
  let firstError: string | undefined;
  const tokensUsed = () => [...records.values()].reduce((n, r) => n + r.tokens, 0);

  const attempt = async (task: AuditTask) => {
    const target = ctx.targets[task.configuration]!;
    const outcome = await runAttempt(
      task.attempt,
      {
        llm: deps.llm,
        request: (conversation) => target.probe.converse(task.questionIndex, conversation),
        guard: target.guardFor(task.questionIndex),
        keys: ctx.keysFor(task.questionIndex),
        secrets: target.probe.secrets,
        estimate: deps.estimate,
        // The exam's grading and audit budget counts every call as it ends, as AI-suggested marks do.
        onSpend: (usage) =>
          deps.gradingUsage.addSpend(ctx.examId, { calls: 1, ...usage }, deps.clock.now()).catch((err: unknown) => {
            deps.log.error({ err, auditId: ctx.auditId }, 'could not add an audit call to the grading usage');
          }),
      },
      stopper.signal,
    );
    if (outcome.error) firstError ??= outcome.error;
    const record = await repo.recordAttempt(
      ctx.auditId,
      {
        configuration: task.configuration,
        questionIndex: task.questionIndex,
        attemptId: task.attempt.id,
        form: task.attempt.form,
        status: outcome.status,
        rawLeaked: outcome.rawLeaked,
        guardedLeaked: outcome.guardedLeaked,
        disguises: outcome.disguises,
        turns: outcome.turns,
        calls: outcome.calls,
        tokens: outcome.inputTokens + outcome.outputTokens,
      },
      deps.clock.now(),
    );
    records.set(taskKey(record), record);
    await save();
  };
  const worker = async () => {
    while (next < pending.length && !stopper.signal.aborted) {
      if (tokensUsed() >= ctx.maxTokens) {
        outOfBudget = true;
        return;
      }
      const task = pending[next++]!;
      try {
        await attempt(task);
      } catch (err) {
        if (err instanceof AttemptAborted) return;
        throw err;
      }
    }
  };

  try {
    if (ctx.recorded.length) await save();
    // A failing worker stops the others (their attempts in flight are aborted) before the run is marked failed.
    await Promise.all(Array.from({ length: Math.max(1, ctx.concurrency) }, worker)).catch((err: unknown) => {
      stop('error');
      throw err;
    });
    await saving;
    const reason = stopper.signal.aborted ? (stopper.signal.reason as StopReason) : undefined;
    // Another replica resumed this run: the row is no longer ours to write.
    if (reason === 'lost') return;
    if (reason === 'shutdown') {
      await stopHeartbeat();
      await repo.releaseLease(ctx.auditId, ctx.leaseOwner, deps.clock.now());
      deps.log.info({ auditId: ctx.auditId, done: records.size }, 'audit paused for a resume elsewhere');
      return;
    }
    const end = progress();
    const errors = [...records.values()].filter((r) => r.status === 'error').length;
    let status: Exclude<AuditStatus, 'running'> = 'completed';
    let error: string | null = null;
    if (reason === 'cancel') status = 'cancelled';
    else if (outOfBudget && records.size < ctx.plan.tasks.length) status = 'budget-exhausted';
    else if (records.size > 0 && errors === records.size) {
      status = 'failed';
      error = AuditRunMessages.allFailed(firstError ?? 'every call failed');
    }
    await repo.finish(ctx.auditId, ctx.leaseOwner, { ...end, status, error }, deps.clock.now());
    deps.log.info(
      { auditId: ctx.auditId, status, calls: end.callsUsed, tokens: end.tokensUsed },
      'assistant audit finished',
    );
  } catch (err) {
    deps.log.error({ err, auditId: ctx.auditId }, 'assistant audit failed');
    await saving.catch(() => undefined);
    await repo
      .finish(
        ctx.auditId,
        ctx.leaseOwner,
        { ...progress(), status: 'failed', error: AuditRunMessages.internal },
        deps.clock.now(),
      )
      .catch((e: unknown) => deps.log.error({ err: e, auditId: ctx.auditId }, 'could not record the failed audit'));
  } finally {
    clearInterval(heartbeat);
    ctx.shutdown.removeEventListener('abort', onShutdown);
  }
}
