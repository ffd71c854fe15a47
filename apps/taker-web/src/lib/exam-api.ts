import {
  PublicExamSchema,
  PublicExamSummarySchema,
  type PublicExam,
  type PublicExamSummary,
} from '@exam/domain/public-exam';
import { StartAttemptResponseSchema, type StartAttempt, type StartAttemptResponse } from '@exam/domain/attempt';
import { api } from '../config/paths.ts';
import { apiRequest } from './api-client.ts';

/** The live exam without its questions: the start page and the exam page before an attempt. */
export function getPublicExam(examId: string): Promise<PublicExamSummary> {
  return apiRequest(api.publicExam(examId), { schema: PublicExamSummarySchema });
}

/** The creator's preview: the exam as a candidate sees it, read with the owner's preview token. */
export function getPreviewExam(examId: string, previewToken: string): Promise<PublicExam> {
  return apiRequest(api.previewExam(examId), { token: previewToken, schema: PublicExamSchema });
}

/**
 * The exam as an attempt shows it (same shape as the public view): the snapshot taken at start, which
 * is what gets graded, so a creator's later edit never changes or reorders the questions on screen.
 */
export function getAttemptExam(attempt: { attemptId: string; token: string }): Promise<PublicExam> {
  return apiRequest(api.attemptExam(attempt.attemptId), { token: attempt.token, schema: PublicExamSchema });
}

export function startAttempt(body: StartAttempt): Promise<StartAttemptResponse> {
  return apiRequest(api.attempts, { method: 'POST', body, schema: StartAttemptResponseSchema });
}
