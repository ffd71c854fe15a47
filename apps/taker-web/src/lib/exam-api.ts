import { PublicExamSchema, type PublicExam } from '@exam/domain/exam';
import { StartAttemptResponseSchema, type StartAttempt, type StartAttemptResponse } from '@exam/domain/attempt';
import { api } from '../config/paths.ts';
import { apiRequest } from './api-client.ts';

/** Shared by the start page, the credentials page and the exam page. */
export function getPublicExam(examId: string, token?: string | null): Promise<PublicExam> {
  return apiRequest(api.publicExam(examId), { token, schema: PublicExamSchema });
}

export function startAttempt(body: StartAttempt): Promise<StartAttemptResponse> {
  return apiRequest(api.attempts, { method: 'POST', body, schema: StartAttemptResponseSchema });
}
