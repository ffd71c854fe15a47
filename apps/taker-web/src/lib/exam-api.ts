import type { StartAttempt, StartAttemptResponse } from '@exam/domain/attempt';
import { readPublicExam, readPublicExamSummary, readStartAttemptResponse } from '@exam/domain/candidate-views';
import type { PublicExam, PublicExamSummary } from '@exam/domain/public-exam';
import { api } from '../config/paths.ts';
import { apiRequest } from './api-client.ts';

// The bodies are read without zod (candidate-views.ts in @exam/domain: shape and defaults; the server is the
// authority on the rest), so the exam page shows its first question without zod (bench/README.md, "Page weight").

/** The live exam without its questions: the start page and the exam page before an attempt. */
export async function getPublicExam(examId: string): Promise<PublicExamSummary> {
  return readPublicExamSummary(await apiRequest(api.publicExam(examId)));
}

/** The creator's preview: the exam as a candidate sees it, read with the owner's preview token. */
export async function getPreviewExam(examId: string, previewToken: string): Promise<PublicExam> {
  return readPublicExam(await apiRequest(api.previewExam(examId), { token: previewToken }));
}

/**
 * The exam as an attempt shows it (same shape as the public view): the snapshot taken at start, which
 * is what gets graded, so a creator's later edit never changes or reorders the questions on screen.
 */
export async function getAttemptExam(attempt: { attemptId: string; token: string }): Promise<PublicExam> {
  return readPublicExam(await apiRequest(api.attemptExam(attempt.attemptId), { token: attempt.token }));
}

export async function startAttempt(body: StartAttempt): Promise<StartAttemptResponse> {
  return readStartAttemptResponse(await apiRequest(api.attempts, { method: 'POST', body }));
}
