import type { RepositoryFile } from '@exam/domain/coding';
import type { ResultsDatabase } from '../../db/database.ts';
import type { attempts, results } from '../../db/schema.ts';

export type AttemptRow = typeof attempts.$inferSelect;
/** The attempt without its binding to the candidate (binding.repository.ts): what scoring and submitting read. */
export type SubmitAttemptRow = Omit<
  AttemptRow,
  | 'candidateKey'
  | 'attemptNo'
  | 'resumeSecretHashes'
  | 'resumeCodeHash'
  | 'resumeFailures'
  | 'resumeBlockedUntil'
  | 'unlockedUntil'
  | 'unlockCodeHash'
  | 'lti'
  | 'operationsBytes'
  | 'operationsCappedAt'
  | 'operationsChars'
  | 'sectionIndex'
  | 'sectionStartedAt'
  | 'practice'
>;
export type NewAttemptRow = typeof attempts.$inferInsert;
export type NewResultRow = typeof results.$inferInsert;
/** The follow-up a submission opens (its settings copied from the snapshot), stored with the result. */
export type SubmissionFollowUp = {
  count: number;
  secondsPerQuestion: number;
  rubric: Array<{ label: string; points: number }>;
};
/**
 * A submission: the result row, the test-graded questions to queue for the runner and the follow-up to open, all
 * in the same write.
 */
export type SubmissionRow = NewResultRow & {
  id: string;
  testGradings: Array<{ questionIndex: number; code: string; files: RepositoryFile[] | null }>;
  followUp: SubmissionFollowUp | null;
};
/** What a submit `build` answers when it wants the workspace files collected first. */
export const NEEDS_FILES = 'needs-files';
export type SubmissionCounts = { resultId: string; answered: number; total: number; followUp: boolean };

/** The database handle every part of the attempts repository works on. */
export type ResultsDb = ResultsDatabase['db'];
