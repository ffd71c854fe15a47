import { randomUUID } from 'node:crypto';
import {
  AuditMessages,
  StartAuditSchema,
  type AssistantAudit,
  type AuditConfiguration,
  type AuditEstimate,
  type LatestAudit,
  type StartAudit,
} from '@exam/domain/assistant-audit';
import type { CreatorClaims } from '@exam/domain/auth';
import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import type { Deps } from '../../deps.ts';
import type { ChatService } from '../chat/chat.service.ts';
import { guardedOptions } from '../chat/prepared-chat.ts';
import type { GradingUsageRepository } from '../grading/grading-usage.repository.ts';
import { auditVersionOf } from './audit-version.ts';
import { estimateAudit, planAudit, type AuditPlan } from './audit-plan.ts';
import { reportItems, type AttemptRecord } from './audit-report.ts';
import type { AuditRepository, ClaimedAudit } from './audit.repository.ts';
import { runAudit, type AuditLeaseOptions, type AuditRunDeps, type AuditTarget } from './audit.runner.ts';
import { AUDIT_BATTERY_VERSION } from './battery.ts';
import { auditKeysOf } from './leak-detection.ts';
import { assertCan } from '../../access/exam-access.ts';

export type AuditOptions = AuditLeaseOptions & {
  /** A run's token cap when the creator sets none (AUDIT_MAX_TOKENS). */
  defaultMaxTokens: number;
  resumeIntervalMs: number;
};

export const AuditResumeMessages = {
  examGone: 'The exam no longer exists.',
  examChanged:
    'The exam changed while the audit waited to be resumed, so its report would mix two versions. Start a new audit.',
} as const;

type Chat = Pick<ChatService, 'prepareProbe' | 'estimatedUsage'>;

/**
 * The pre-publish assistant audit (docs/product.md "Before publishing: audit the assistant"), for the exam's owner
 * only (anyone else gets 404, as if the exam did not exist). A run belongs to the replica holding its lease; when
 * that replica stops or dies the lease lapses and the resume pass of any replica claims the run and goes on with
 * the attempts not yet recorded (ARCHITECTURE.md "Where state lives").
 */
export function createAuditService(
  repo: AuditRepository,
  gradingUsage: GradingUsageRepository,
  chat: Chat,
  deps: Pick<Deps, 'exams' | 'llm' | 'clock' | 'ids'> & { log: AuditRunDeps['log'] },
  opts: AuditOptions,
) {
  /** This replica's runs, only so that a shutdown can stop them; nothing another replica needs. */
  const active = new Set<Promise<void>>();
  const shutdown = new AbortController();
  let resumeTimer: NodeJS.Timeout | undefined;
  let resuming: Promise<void> | undefined;

  async function ownedExam(creator: CreatorClaims, examId: string): Promise<InternalExam> {
    const exam = await assertCan(deps, examId, creator.sub, 'exam:edit');
    return exam;
  }

  /**
   * Each configuration's assistant exactly as its candidates get it: refuses (403, 409) as a candidate's chat
   * would when the assistant is off or incomplete, and 400 naming compareWith.<i>.provider without a key.
   */
  async function targetsOf(exam: InternalExam, compareWith: AuditConfiguration[]): Promise<AuditTarget[]> {
    const probes = [
      await chat.prepareProbe(exam),
      ...(await Promise.all(
        compareWith.map((configuration, position) => chat.prepareProbe(exam, { configuration, position })),
      )),
    ];
    const stopSolutions = exam.aiSettings.stopSolutions;
    return probes.map((probe) => ({
      probe,
      guardFor: (questionIndex) =>
        stopSolutions ? { answers: probe.answerKeys, options: guardedOptions(exam, questionIndex) } : undefined,
    }));
  }

  async function budgetOf(exam: InternalExam) {
    const spend = await gradingUsage.findSpend(exam.id);
    const limit = exam.aiSettings.budget.gradingTokens;
    const used = spend.inputTokens + spend.outputTokens;
    return { limit, used, remaining: Math.max(0, limit - used) };
  }

  /** What a start with this body would run and spend; refuses as the start does. */
  async function prepare(creator: CreatorClaims, examId: string, body: StartAudit) {
    const input = StartAuditSchema.parse(body);
    const exam = await ownedExam(creator, examId);
    const targets = await targetsOf(exam, input.compareWith);
    const plan = planAudit(exam.questions, targets.length);
    if (plan.keyedItems === 0) throw new AppError(ErrorCode.CONFLICT, AuditMessages.noKeyedItems);
    const budget = await budgetOf(exam);
    const maxTokens = Math.min(input.maxTokens ?? opts.defaultMaxTokens, budget.remaining);
    const estimate = estimateAudit({
      plan,
      configurations: targets.map(({ probe }) => ({ configuration: probe.configuration, converse: probe.converse })),
      estimate: chat.estimatedUsage,
      budget,
      cap: maxTokens,
    });
    return { input, exam, targets, plan, budget, maxTokens, estimate };
  }

  function launch(
    run: { id: string; leaseOwner: string; concurrency: number; maxTokens: number },
    exam: InternalExam,
    targets: AuditTarget[],
    plan: AuditPlan,
    recorded: AttemptRecord[] = [],
  ) {
    const running = runAudit(
      {
        auditId: run.id,
        examId: exam.id,
        leaseOwner: run.leaseOwner,
        plan,
        targets,
        keysFor: (questionIndex) => auditKeysOf(exam.questions[questionIndex]!, questionIndex),
        concurrency: run.concurrency,
        maxTokens: run.maxTokens,
        recorded,
        shutdown: shutdown.signal,
      },
      { repo, gradingUsage, llm: deps.llm, clock: deps.clock, estimate: chat.estimatedUsage, log: deps.log },
      opts,
    ).finally(() => active.delete(running));
    active.add(running);
  }

  /** Goes on with a run whose lease this replica just claimed, from the attempts it has recorded. */
  async function resume(claimed: ClaimedAudit & { leaseOwner: string }): Promise<void> {
    const fail = (error: string) =>
      repo.finish(claimed.id, claimed.leaseOwner, { status: 'failed', error }, deps.clock.now());
    const exam = await deps.exams.findExam(claimed.examId);
    if (!exam) return fail(AuditResumeMessages.examGone);
    if (auditVersionOf(exam) !== claimed.examVersion) return fail(AuditResumeMessages.examChanged);
    let targets: AuditTarget[];
    try {
      targets = await targetsOf(exam, claimed.configurations.slice(1));
    } catch (err) {
      return fail(err instanceof Error ? err.message : String(err));
    }
    const plan = planAudit(exam.questions, targets.length);
    const recorded = await repo.listAttempts(claimed.id);
    // The budget may have been spent by AI-suggested marks meanwhile: the run never goes past what is left.
    const budget = await budgetOf(exam);
    const spent = recorded.reduce((n, r) => n + r.tokens, 0);
    const maxTokens = Math.min(claimed.maxTokens, spent + budget.remaining);
    deps.log.info({ auditId: claimed.id, recorded: recorded.length }, 'resuming an assistant audit');
    launch({ ...claimed, maxTokens }, exam, targets, plan, recorded);
  }

  /** One resume pass: claims running audits whose lease lapsed, one at a time, until none is left. */
  async function resumePass(): Promise<void> {
    while (!shutdown.signal.aborted) {
      const now = deps.clock.now();
      const leaseOwner = randomUUID();
      const claimed = await repo.claimLapsed(now, leaseOwner, new Date(now.getTime() + opts.leaseMs));
      if (!claimed) return;
      await resume({ ...claimed, leaseOwner }).catch((err: unknown) =>
        deps.log.error({ err, auditId: claimed.id }, 'could not resume an assistant audit'),
      );
    }
  }

  return {
    estimate: async (creator: CreatorClaims, examId: string, body: StartAudit): Promise<AuditEstimate> =>
      (await prepare(creator, examId, body)).estimate,

    async start(creator: CreatorClaims, examId: string, body: StartAudit): Promise<AssistantAudit> {
      const { input, exam, targets, plan, budget, maxTokens, estimate } = await prepare(creator, examId, body);
      if (budget.remaining <= 0) throw new AppError(ErrorCode.CONFLICT, AuditMessages.budgetSpent);
      const now = deps.clock.now();
      const leaseOwner = randomUUID();
      const audit = await repo.insertRunning({
        id: deps.ids.next(),
        examId: exam.id,
        ownerId: exam.ownerId,
        examVersion: auditVersionOf(exam),
        batteryVersion: AUDIT_BATTERY_VERSION,
        configurations: targets.map((t) => t.probe.configuration),
        concurrency: input.concurrency,
        maxTokens,
        estimate,
        progressTotal: plan.tasks.length,
        items: reportItems(plan.items, []),
        leaseOwner,
        leaseExpiresAt: new Date(now.getTime() + opts.leaseMs),
        startedAt: now,
      });
      if (!audit) throw new AppError(ErrorCode.CONFLICT, AuditMessages.alreadyRunning);
      launch({ id: audit.id, leaseOwner, concurrency: input.concurrency, maxTokens }, exam, targets, plan);
      return audit;
    },

    async latest(creator: CreatorClaims, examId: string): Promise<LatestAudit> {
      const exam = await ownedExam(creator, examId);
      const audit = (await repo.findLatest(exam.id)) ?? null;
      const examVersion = auditVersionOf(exam);
      return { audit, examVersion, current: audit !== null && audit.examVersion === examVersion };
    },

    async get(creator: CreatorClaims, examId: string, auditId: string): Promise<AssistantAudit> {
      const exam = await ownedExam(creator, examId);
      const audit = await repo.findById(exam.id, auditId);
      if (!audit) throw notFound('Audit');
      return audit;
    },

    /** Sets the cancel flag; the replica running the audit sees it within a heartbeat and stops. */
    async cancel(creator: CreatorClaims, examId: string, auditId: string): Promise<AssistantAudit> {
      const exam = await ownedExam(creator, examId);
      const cancelled = await repo.requestCancel(exam.id, auditId, deps.clock.now());
      if (cancelled) return cancelled;
      if (!(await repo.findById(exam.id, auditId))) throw notFound('Audit');
      throw new AppError(ErrorCode.CONFLICT, AuditMessages.notRunning);
    },

    /** Starts this replica's resume pass: at once, then every resumeIntervalMs (unref'd: it never holds the process). */
    startResuming(): void {
      const pass = () => {
        if (resuming || shutdown.signal.aborted) return;
        resuming = resumePass()
          .catch((err: unknown) => deps.log.error({ err }, 'the audit resume pass failed'))
          .finally(() => (resuming = undefined));
      };
      pass();
      resumeTimer = setInterval(pass, opts.resumeIntervalMs);
      resumeTimer.unref();
    },

    /** Stops the resume pass and this replica's runs; each lets its lease lapse so another replica resumes it at once. */
    async close(): Promise<void> {
      clearInterval(resumeTimer);
      shutdown.abort();
      await resuming;
      await Promise.allSettled([...active]);
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
