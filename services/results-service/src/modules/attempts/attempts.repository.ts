import type { ResultsDatabase } from '../../db/database.ts';
import type { SaveBatchOptions } from './answer-batch.ts';
import { answerWrites } from './answer-writes.repository.ts';
import { attemptReads } from './attempt-reads.repository.ts';
import { bindingWrites } from './binding.repository.ts';
import { lockedSubmit } from './locked-submit.repository.ts';
import { optimisticSubmit } from './optimistic-submit.repository.ts';

export {
  NEEDS_FILES,
  type AttemptRow,
  type SubmitAttemptRow,
  type NewResultRow,
  type SubmissionCounts,
} from './attempt-rows.ts';

/**
 * The attempts' storage, one part per responsibility: starting and reading an attempt, its binding to the candidate, the candidate's
 * writes while it is open, the optimistic submit, and the locking submit the finalizer shares.
 */
export function createAttemptsRepository({ db }: ResultsDatabase, opts: { saveBatch?: SaveBatchOptions } = {}) {
  return {
    ...attemptReads(db),
    ...bindingWrites(db),
    ...answerWrites(db, opts.saveBatch),
    ...optimisticSubmit(db),
    ...lockedSubmit(db),
  };
}
export type AttemptsRepository = ReturnType<typeof createAttemptsRepository>;
