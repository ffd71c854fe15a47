import { randomUUID } from 'node:crypto';
import type { CreatorClaims } from '@exam/domain/auth';
import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import {
  StartSolvabilityCheckSchema,
  type SolvabilityCheck,
  type StartSolvabilityCheck,
} from '@exam/domain/solvability';
import type { Deps } from '../../deps.ts';
import type { ChatService } from '../chat/chat.service.ts';
import type { SolvabilityRepository } from './solvability.repository.ts';
import { planCheck, runCheck, type LeaseOptions, type RunDeps } from './solvability.runner.ts';
import { assertCan } from '../../access/exam-access.ts';

export const SolvabilityMessages = {
  alreadyRunning: 'A solvability check is already running for this exam.',
  notRunning: 'The solvability check is not running.',
} as const;

export type SolvabilityOptions = LeaseOptions & {
  defaultMaxCalls: number;
  defaultMaxTokens: number;
  /** The exam version a check records (the audit's auditVersionOf, which sits above this module). */
  examVersion: (exam: InternalExam) => string;
};

/**
 * The AI solvability check of an exam, for its owner only (anyone else gets 404, as if the exam did not
 * exist). The run happens in the background of the replica that accepted it, under a lease in the
 * database; its progress, report and cancel flag live in the database, so every replica reads and stops it.
 */
export function createSolvabilityService(
  repo: SolvabilityRepository,
  chat: Pick<ChatService, 'prepareProbe' | 'estimatedUsage'>,
  deps: Pick<Deps, 'exams' | 'llm' | 'codeRunner' | 'clock' | 'ids'> & { log: RunDeps['log'] },
  opts: SolvabilityOptions,
) {
  /** This replica's runs, only so that a shutdown can stop them; nothing another replica needs. */
  const active = new Set<Promise<void>>();
  const shutdown = new AbortController();

  async function ownedExam(creator: CreatorClaims, examId: string): Promise<InternalExam> {
    const exam = await assertCan(deps, examId, creator.sub, 'exam:edit');
    // A run whose replica died shows as interrupted rather than running for ever.
    await repo.interruptLapsed(exam.id, deps.clock.now());
    return exam;
  }

  return {
    async start(creator: CreatorClaims, examId: string, body: StartSolvabilityCheck): Promise<SolvabilityCheck> {
      const input = StartSolvabilityCheckSchema.parse(body);
      const exam = await ownedExam(creator, examId);
      // Refuses (403, 409) exactly as a candidate's chat would when the assistant is off or incomplete; a compared
      // configuration without a key is refused (400 naming compareWith.<i>.provider) before anything is stored.
      const probes = [await chat.prepareProbe(exam)];
      for (const [position, configuration] of input.compareWith.entries())
        probes.push(await chat.prepareProbe(exam, { configuration, position }));
      const plan = planCheck(exam.questions, input.phrasingsPerQuestion, probes.length);
      const now = deps.clock.now();
      const leaseOwner = randomUUID();
      const budget = {
        maxCalls: input.maxCalls ?? opts.defaultMaxCalls,
        maxTokens: input.maxTokens ?? opts.defaultMaxTokens,
      };
      const check = await repo.insertRunning({
        id: deps.ids.next(),
        examId: exam.id,
        ownerId: exam.ownerId,
        phrasingsPerQuestion: input.phrasingsPerQuestion,
        examVersion: opts.examVersion(exam),
        configurations: probes.map((probe) => probe.configuration),
        ...budget,
        progressTotal: plan.tasks.length,
        items: plan.items,
        leaseOwner,
        leaseExpiresAt: new Date(now.getTime() + opts.leaseMs),
        startedAt: now,
      });
      if (!check) throw new AppError(ErrorCode.CONFLICT, SolvabilityMessages.alreadyRunning);
      const run = runCheck(
        {
          checkId: check.id,
          examId: exam.id,
          leaseOwner,
          questions: exam.questions,
          probes,
          plan,
          budget,
          shutdown: shutdown.signal,
        },
        {
          repo,
          llm: deps.llm,
          codeRunner: deps.codeRunner,
          clock: deps.clock,
          estimate: chat.estimatedUsage,
          log: deps.log,
        },
        opts,
      ).finally(() => active.delete(run));
      active.add(run);
      return check;
    },

    async latest(creator: CreatorClaims, examId: string): Promise<SolvabilityCheck | null> {
      const exam = await ownedExam(creator, examId);
      return (await repo.findLatest(exam.id)) ?? null;
    },

    async get(creator: CreatorClaims, examId: string, checkId: string): Promise<SolvabilityCheck> {
      const exam = await ownedExam(creator, examId);
      const check = await repo.findById(exam.id, checkId);
      if (!check) throw notFound('Solvability check');
      return check;
    },

    /** Sets the cancel flag; the replica running the check sees it within a heartbeat and stops. */
    async cancel(creator: CreatorClaims, examId: string, checkId: string): Promise<SolvabilityCheck> {
      const exam = await ownedExam(creator, examId);
      const cancelled = await repo.requestCancel(exam.id, checkId);
      if (cancelled) return cancelled;
      const check = await repo.findById(exam.id, checkId);
      if (!check) throw notFound('Solvability check');
      throw new AppError(ErrorCode.CONFLICT, SolvabilityMessages.notRunning);
    },

    /** Stops this replica's runs (recorded as interrupted) and waits for them. */
    async close(): Promise<void> {
      shutdown.abort();
      await Promise.allSettled([...active]);
    },
  };
}
export type SolvabilityService = ReturnType<typeof createSolvabilityService>;
