import { randomUUID } from 'node:crypto';
import type { CreatorClaims } from '@exam/domain/auth';
import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import { SuggestionMessages, type StartSuggestionBatch, type SuggestionBatch } from '@exam/domain/question-grading';
import { assertCan } from '../../access/exam-ownership.ts';
import type { Deps } from '../../deps.ts';
import type { AnswerToSuggest } from './suggest-answer.ts';
import { runBatch, type LeaseOptions, type RunnerDeps } from './suggestion-batch.runner.ts';
import { toBatch, type SuggestionBatchesRepository } from './suggestion-batches.repository.ts';

/** Every answer of one question of an owner's exam, as a batch chooses from them (404 for another creator's exam). */
export type ListAnswers = (
  ownerId: string,
  examId: string,
  examQuestionIndex: number,
) => Promise<{ humanGraded: boolean; answers: Array<AnswerToSuggest & { marked: boolean }> }>;

export type BatchServiceDeps = RunnerDeps &
  Pick<Deps, 'examSource'> & { listAnswers: ListAnswers; batches: SuggestionBatchesRepository };

const field = (path: string, message: string) => new AppError(ErrorCode.VALIDATION, message, [{ path, message }]);

/**
 * Suggestion batches over one question's answers (docs/product.md#ai-suggested-marks). A start fixes the batch's
 * answers and stores it running without a lease; the suggestion-batch job (jobs/suggestion-batches.ts) of any
 * replica claims it (`pass`), this replica's at once (`onStarted` wakes it). Progress and the cancel flag live in
 * the row, so every replica reads and stops it.
 */
export function createSuggestionBatchesService(deps: BatchServiceDeps, opts: LeaseOptions) {
  /** This replica's runs, only so a shutdown can hand them back; nothing another replica needs. */
  const active = new Set<Promise<void>>();
  const shutdown = new AbortController();
  const listeners = new Set<() => void>();

  /** The answers a batch covers: human-graded, readable, in scope, and without a current suggestion. */
  async function chooseAnswers(
    creator: CreatorClaims,
    examId: string,
    questionIndex: number,
    input: StartSuggestionBatch,
  ) {
    const read = await deps.listAnswers(creator.sub, examId, questionIndex);
    if (!read.humanGraded) throw field('questionIndex', SuggestionMessages.notHumanGraded);
    let chosen = read.answers;
    if (input.scope === 'results') {
      if (!input.resultIds) throw field('resultIds', 'Name the results to suggest marks for (scope "results").');
      const known = new Set(chosen.map((a) => a.resultId));
      const unknown = input.resultIds.findIndex((id) => !known.has(id));
      if (unknown >= 0) throw field(`resultIds.${unknown}`, 'Not a result of this exam that answered this question.');
      const wanted = new Set(input.resultIds);
      chosen = chosen.filter((a) => wanted.has(a.resultId));
    } else if (input.scope === 'unmarked') chosen = chosen.filter((a) => !a.marked);
    chosen = chosen.filter((a) => a.humanGraded && (a.text ?? '').trim() !== '');
    const made = await deps.suggestions.madeFor(
      examId,
      questionIndex,
      chosen.map((a) => a.resultId),
    );
    const current = new Set(made.map((m) => `${m.resultId}\u0000${m.answerHash}`));
    return chosen.filter((a) => !current.has(`${a.resultId}\u0000${a.answerHash}`)).map((a) => a.resultId);
  }

  /** The owner's exam and question, else 404 as if absent. */
  async function assertOwnsQuestion(creator: CreatorClaims, examId: string, questionIndex: number) {
    const exam = await assertCan(deps, examId, creator.sub, 'results:grade');
    if (questionIndex >= exam.questions.length) throw notFound('Question');
  }

  async function findBatch(creator: CreatorClaims, examId: string, questionIndex: number, batchId: string) {
    await assertOwnsQuestion(creator, examId, questionIndex);
    const row = await deps.batches.findById(examId, questionIndex, batchId);
    if (!row || row.ownerId !== creator.sub) throw notFound('Suggestion batch');
    return row;
  }

  return {
    async start(
      creator: CreatorClaims,
      examId: string,
      questionIndex: number,
      input: StartSuggestionBatch,
    ): Promise<SuggestionBatch> {
      const resultIds = await chooseAnswers(creator, examId, questionIndex, input);
      const now = deps.clock.now();
      const row = await deps.batches.insert({
        id: deps.ids.next(),
        examId,
        ownerId: creator.sub,
        questionIndex,
        status: resultIds.length ? 'running' : 'completed',
        scope: input.scope,
        resultIds,
        concurrency: input.concurrency,
        samples: input.samples,
        startedBy: creator.email,
        startedAt: now,
        finishedAt: resultIds.length ? null : now,
      });
      if (!row) throw new AppError(ErrorCode.CONFLICT, SuggestionMessages.batchRunning);
      if (row.status === 'running') for (const listener of listeners) listener();
      return toBatch(row);
    },

    async latest(creator: CreatorClaims, examId: string, questionIndex: number): Promise<SuggestionBatch | null> {
      await assertOwnsQuestion(creator, examId, questionIndex);
      const row = await deps.batches.findLatest(examId, questionIndex);
      return row && row.ownerId === creator.sub ? toBatch(row) : null;
    },

    /** Sets the cancel flag; the replica running the batch sees it within a heartbeat and stops. */
    async cancel(creator: CreatorClaims, examId: string, questionIndex: number, batchId: string) {
      await findBatch(creator, examId, questionIndex, batchId);
      const cancelled = await deps.batches.requestCancel(examId, questionIndex, batchId, deps.clock.now());
      if (!cancelled) throw new AppError(ErrorCode.CONFLICT, SuggestionMessages.batchNotRunning);
      return toBatch(cancelled);
    },

    /**
     * One pass of the job: claims every running batch no replica holds and starts running it here, in the
     * background. Answers how many it claimed.
     */
    async pass(): Promise<number> {
      let claimed = 0;
      while (!shutdown.signal.aborted) {
        const leaseOwner = randomUUID();
        const batch = await deps.batches.claimNext(leaseOwner, deps.clock.now(), opts.leaseMs);
        if (!batch) break;
        claimed += 1;
        const run = runBatch(batch, leaseOwner, deps, opts, shutdown.signal)
          .catch((err: unknown) => deps.log.error({ err, batchId: batch.id }, 'suggestion batch run failed'))
          .finally(() => active.delete(run));
        active.add(run);
      }
      return claimed;
    },

    /** Subscribes to batches started on this replica (the job's wake); returns the unsubscribe. */
    onStarted(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Resolves when this replica's runs have ended (tests wait for a batch with it). */
    async idle(): Promise<void> {
      while (active.size) await Promise.allSettled([...active]);
    },

    /** Stops this replica's runs (answers in flight finish) and hands their batches back to the other replicas. */
    async close(): Promise<void> {
      shutdown.abort();
      await Promise.allSettled([...active]);
    },
  };
}
export type SuggestionBatchesService = ReturnType<typeof createSuggestionBatchesService>;
