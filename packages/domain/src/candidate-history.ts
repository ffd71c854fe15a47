import { z } from 'zod';
import { ResultSummarySchema } from './result.ts';

/**
 * GET /api/results/candidates/{candidateId}: one candidate's attempts across the signed-in creator's exams
 * (docs/product.md#results-and-grading). The candidate ID is compared normalised, as attempts are
 * (attempt-binding.ts's candidateKey), so `S-1` and `s-1` are one candidate.
 */

/** The newest attempts listed; a candidate with more is told the list stops there. */
export const CANDIDATE_HISTORY_MAX = 200;

export const CandidateHistoryParamsSchema = z.object({ candidateId: z.string().trim().min(1).max(100) });

export const CandidateAttemptSchema = z.object({
  attemptId: z.string(),
  examId: z.string(),
  /** The title the exam had when this attempt started. */
  examTitle: z.string(),
  /** The name and candidate ID as typed for this attempt. */
  name: z.string(),
  studentId: z.string(),
  attemptNo: z.number().int(),
  startedAt: z.string(),
  /** Null while the attempt is still open. */
  submittedAt: z.string().nullable(),
  /** The submitted result; null while the attempt is open. */
  result: ResultSummarySchema.nullable(),
});
export type CandidateAttempt = z.infer<typeof CandidateAttemptSchema>;

export const CandidateHistorySchema = z.object({
  /** The candidate as their newest attempt names them. */
  name: z.string(),
  studentId: z.string(),
  /** Newest start first; at most CANDIDATE_HISTORY_MAX. */
  attempts: z.array(CandidateAttemptSchema),
  /** More attempts exist than were listed. */
  truncated: z.boolean(),
});
export type CandidateHistory = z.infer<typeof CandidateHistorySchema>;
