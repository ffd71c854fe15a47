import { AppError, ErrorCode } from '@exam/domain/errors';
import { SuggestionMessages, type SuggestionBatchStatus } from '@exam/domain/question-grading';
import type { Deps } from '../../deps.ts';
import { suggestAnswer, type AnswerToSuggest } from './suggest-answer.ts';
import type { BatchRow, LeaseState, SuggestionBatchesRepository } from './suggestion-batches.repository.ts';
import type { SuggestionsRepository } from './suggestions.repository.ts';

/** Reads one answer of a question as a suggestion needs it; undefined when the owner has no such answer. */
export type FindAnswer = (
  ownerId: string,
  resultId: string,
  examQuestionIndex: number,
) => Promise<AnswerToSuggest | undefined>;

export type RunnerDeps = Pick<Deps, 'gradingSuggester' | 'clock' | 'ids'> & {
  batches: SuggestionBatchesRepository;
  suggestions: SuggestionsRepository;
  findAnswer: FindAnswer;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
};
export type LeaseOptions = { leaseMs: number; heartbeatMs: number };

/**
 * Why a run stopped before its answers ran out, strongest first: a lost lease means the row is someone else's; a
 * cancel is the grader's word; the budget and a missing provider end the batch; an outage of llm-gateway, or this
 * replica shutting down, leaves it running for the next claim.
 */
const STOPS = ['lost', 'cancel', 'budget', 'no-provider', 'outage', 'shutdown'] as const;
type StopReason = (typeof STOPS)[number];

/** Answers asked at once: each asks the gateway for all its samples together, so this keeps calls ≤ concurrency. */
export function answersInFlight(concurrency: number, samples: number): number {
  return Math.max(1, Math.floor(concurrency / samples));
}

/**
 * Runs a claimed batch (docs/product.md#ai-suggested-marks) until its answers run out or something stops it. At
 * most answersInFlight answers are asked at once; the lease is renewed every heartbeatMs, which is also when a
 * cancel set on any replica is seen (answers in flight finish and are kept: their tokens are spent). Every answer
 * is read afresh before it is asked, and skipped when it already has a current suggestion, so an answer is never
 * suggested twice, not even after a takeover. No transaction is open while the gateway is asked.
 */
export async function runBatch(
  batch: BatchRow,
  leaseOwner: string,
  deps: RunnerDeps,
  opts: LeaseOptions,
  shutdown: AbortSignal,
): Promise<void> {
  const log = { batchId: batch.id, examId: batch.examId, questionIndex: batch.questionIndex };
  const stops = new Set<StopReason>();
  let stopMessage: string | null = null;
  const stop = (reason: StopReason, message: string | null = null) => {
    stops.add(reason);
    if (message && stopMessage === null) stopMessage = message;
  };
  const obey = (state: LeaseState) => {
    if (state.kind === 'lost') stop('lost');
    else if (state.cancelRequested) stop('cancel');
  };
  const onShutdown = () => stop('shutdown');
  if (shutdown.aborted) onShutdown();
  else shutdown.addEventListener('abort', onShutdown, { once: true });
  const leaseUntil = () => new Date(deps.clock.now().getTime() + opts.leaseMs);
  const heartbeat = setInterval(() => {
    deps.batches
      .renewLease(batch.id, leaseOwner, leaseUntil())
      .then(obey, (err: unknown) => deps.log.error({ err, ...log }, 'could not renew a suggestion batch lease'));
  }, opts.heartbeatMs);
  heartbeat.unref();

  let asked = 0;
  let suggested = 0;
  let firstFailure: string | undefined;
  const failed = async (reason: string) => {
    firstFailure ??= reason;
    obey(await deps.batches.count(batch.id, leaseOwner, { failed: 1 }));
  };

  async function suggestOne(resultId: string): Promise<void> {
    const answer = await deps.findAnswer(batch.ownerId, resultId, batch.questionIndex);
    if (!answer) return failed('The result no longer exists.');
    if (!answer.humanGraded) return failed(SuggestionMessages.notHumanGraded);
    if (!answer.text?.trim()) return failed(SuggestionMessages.unreadable);
    const made = await deps.suggestions.madeFor(batch.examId, batch.questionIndex, [resultId]);
    if (made.some((m) => m.answerHash === answer.answerHash)) {
      // A grader asked for this one meanwhile: it is done, without a second call.
      obey(await deps.batches.count(batch.id, leaseOwner, { done: 1 }));
      return;
    }
    asked += 1;
    try {
      await suggestAnswer(answer, batch.samples, { ...deps, repo: deps.suggestions }, { id: batch.id, leaseOwner });
      suggested += 1;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === ErrorCode.RATE_LIMITED) stop('budget', err.message);
      else if (err.code === ErrorCode.CONFLICT) stop('no-provider', err.message);
      else if (err.code === ErrorCode.UNAVAILABLE) stop('outage', err.message);
      else await failed(err.message);
    }
  }

  const queue = [...batch.resultIds];
  const worker = async () => {
    while (stops.size === 0) {
      const resultId = queue.shift();
      if (resultId === undefined) return;
      try {
        await suggestOne(resultId);
      } catch (err) {
        deps.log.error({ err, ...log, resultId }, 'a suggestion of a batch failed');
        await failed('An internal error stopped this answer.').catch(() => {});
      }
    }
  };

  try {
    if (batch.cancelRequested) stop('cancel');
    const done = await deps.batches.suggestedBy(batch.id);
    for (let i = queue.length - 1; i >= 0; i--) if (done.has(queue[i]!)) queue.splice(i, 1);
    await Promise.all(Array.from({ length: answersInFlight(batch.concurrency, batch.samples) }, worker));
  } finally {
    clearInterval(heartbeat);
    shutdown.removeEventListener('abort', onShutdown);
  }
  await settle(batch, leaseOwner, deps, stopReason(stops), { asked, suggested, firstFailure, stopMessage });
}

const stopReason = (stops: Set<StopReason>): StopReason | undefined => STOPS.find((s) => stops.has(s));

/** Writes how the run ended: a final status, or (outage, shutdown) the batch left running for the next claim. */
async function settle(
  batch: BatchRow,
  leaseOwner: string,
  deps: RunnerDeps,
  reason: StopReason | undefined,
  run: { asked: number; suggested: number; firstFailure: string | undefined; stopMessage: string | null },
) {
  const now = deps.clock.now();
  const log = { batchId: batch.id, reason: reason ?? 'finished', asked: run.asked, suggested: run.suggested };
  if (reason === 'lost') return deps.log.info(log, 'suggestion batch taken over by another replica');
  // The gateway is down: the lease is left to lapse (ARCHITECTURE.md, "The three loops"), so a later pass of any
  // replica takes the batch over and goes on where it stopped.
  if (reason === 'outage') {
    await deps.batches.noteWaiting(batch.id, leaseOwner, SuggestionMessages.gatewayDown);
    return deps.log.info(log, 'suggestion batch waits for llm-gateway');
  }
  if (reason === 'shutdown') {
    await deps.batches.release(batch.id, leaseOwner, now);
    return deps.log.info(log, 'suggestion batch handed back at shutdown');
  }
  let status: Exclude<SuggestionBatchStatus, 'running'> = 'completed';
  let error: string | null = null;
  if (reason === 'cancel') status = 'cancelled';
  else if (reason === 'budget')
    [status, error] = ['budget-exhausted', run.stopMessage ?? SuggestionMessages.budgetExhausted];
  else if (reason === 'no-provider') [status, error] = ['failed', run.stopMessage ?? SuggestionMessages.noProvider];
  else if (run.asked > 0 && run.suggested === 0)
    [status, error] = ['failed', `No answer could be suggested: ${run.firstFailure ?? 'unknown error'}`];
  await deps.batches.finish(batch.id, leaseOwner, { status, error }, now);
  deps.log.info({ ...log, status }, 'suggestion batch finished');
}
