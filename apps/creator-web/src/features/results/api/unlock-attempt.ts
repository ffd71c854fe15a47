import { UnlockAttemptResponseSchema, type UnlockAttemptResponse } from '@exam/domain/attempt-binding';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * POST /api/attempts/unlock: the next start with this candidate ID resumes its open attempt
 * without the resume code, once, within a few minutes (a candidate who lost the code, or whose ID someone
 * else started first).
 */
export function unlockAttempt(examId: string, studentId: string): Promise<UnlockAttemptResponse> {
  return apiRequest(api.attemptUnlock, {
    method: 'POST',
    body: { examId, studentId },
    schema: UnlockAttemptResponseSchema,
  });
}

export function useUnlockAttempt(examId: string) {
  return useMutation({ mutationFn: (studentId: string) => unlockAttempt(examId, studentId) });
}
