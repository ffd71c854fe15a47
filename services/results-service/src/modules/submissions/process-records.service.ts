import type { ProcessRecord } from '@exam/domain/timeline';
import type { ProcessWorker } from '../../scoring/process-worker.ts';
import type { Deps } from '../../deps.ts';
import type { PendingProcess, ProcessRecordsRepository } from './process-records.repository.ts';

/**
 * How each result's answers came to be (results.process), computed after the submission has committed: replaying
 * every answer's operations takes milliseconds per attempt (tens for a long one), which a deadline's burst of
 * submits must not wait for (bench/README.md, results-service). The submit marks the result pending and wakes the
 * job (jobs/process-records.ts); the job computes pending results one by one, in a worker thread.
 */
export function createProcessRecordsService(
  repo: ProcessRecordsRepository,
  worker: ProcessWorker,
  deps: Pick<Deps, 'attemptTranscripts'>,
) {
  const listeners = new Set<() => void>();
  /**
   * The attempt's transcript gives the messages the candidate sent (the summary's assistantMessages) and the replies
   * they could copy by hand (the typing signals). Without it the record is not made: llm-gateway unreachable leaves
   * the result pending, and the job tries again at its next run.
   */
  const compute = async (pending: PendingProcess) => {
    const messages = await deps.attemptTranscripts.findAttemptTranscript(pending.attemptId);
    return worker.compute({
      ...pending,
      trail: {
        ...pending.trail,
        assistantMessages: messages.filter((m) => m.role === 'user').length,
        assistantReplies: messages.filter((m) => m.role === 'assistant').map((m) => m.content),
      },
    });
  };
  return {
    /**
     * One pass of the job: computes pending results until none is left (or `max`); returns how many. A failure
     * (llm-gateway unreachable) ends the pass; what is left waits for the next one.
     */
    async computePending(max = 500): Promise<number> {
      let done = 0;
      while (done < max && (await repo.computeNext(compute))) done++;
      return done;
    },

    /**
     * The result's process for whoever shows or signs it (the timeline, the candidate's receipt): the stored one, or
     * computed now when it is still pending. null for a result made before operations were recorded; undefined when
     * there is no such result.
     */
    async processOf(resultId: string): Promise<ProcessRecord | null | undefined> {
      const stored = await repo.findProcess(resultId);
      if (!stored) return undefined;
      if (!stored.pending) return stored.process;
      return (await repo.computePendingResult(resultId, compute)) ?? (await repo.findProcess(resultId))?.process;
    },

    /** A submission was stored: the job on this replica runs now rather than at its next interval. */
    wake(): void {
      for (const listener of listeners) listener();
    },

    /** For the job (startPeriodic's `wake`). */
    onPending(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type ProcessRecordsService = ReturnType<typeof createProcessRecordsService>;
