import { UnlockAttemptResponseSchema } from '@exam/domain/attempt-binding';
import { ExamSchema } from '@exam/domain/exam';
import type { LiveAttempt } from '@exam/domain/live';
import {
  AnnouncementSchema,
  EndAttemptResponseSchema,
  ExamLiveSchema,
  LIVE_POLL_MS,
  ResultLiveLogSchema,
} from '@exam/domain/live';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { examName } from '../../../lib/display-names.ts';

export const liveKeys = {
  exam: (examId: string) => ['live', 'exam', examId] as const,
  examTitle: (examId: string) => ['live', 'exam-title', examId] as const,
  result: (resultId: string) => ['live', 'result', resultId] as const,
};

/** A live attempt, with its running shares of typed, pasted and assistant characters (optional: "—" without). */
export type LiveAttemptWithShares = LiveAttempt;

/** GET /api/exams/{id}/live, polled every LIVE_POLL_MS while the page is open (even in a background tab). */
export function useExamLive(examId: string) {
  return useQuery({
    queryKey: liveKeys.exam(examId),
    queryFn: ({ signal }) => apiRequest(api.examLive(examId), { schema: ExamLiveSchema, signal }),
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: true,
  });
}

/** The exam itself (exam-service), for the page's title. */
export function useLiveExamTitle(examId: string) {
  return useQuery({
    queryKey: liveKeys.examTitle(examId),
    queryFn: ({ signal }) => apiRequest(api.exam(examId), { schema: ExamSchema, signal }),
    select: (exam) => examName(exam.title),
    retry: false,
  });
}

function useRefreshLive(examId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: liveKeys.exam(examId) });
}

export function useSendAnnouncement(examId: string) {
  const refresh = useRefreshLive(examId);
  return useMutation({
    mutationFn: (text: string) =>
      apiRequest(api.examAnnouncements(examId), { method: 'POST', body: { text }, schema: AnnouncementSchema }),
    onSuccess: refresh,
  });
}

export function useEndAttempt(examId: string) {
  const refresh = useRefreshLive(examId);
  return useMutation({
    mutationFn: (attemptId: string) =>
      apiRequest(api.endAttempt(examId, attemptId), { method: 'POST', schema: EndAttemptResponseSchema }),
    onSuccess: refresh,
  });
}

/** POST /api/attempts/unlock: the candidate's next start resumes without the resume code, once, for a few minutes. */
export function useUnlockResume(examId: string) {
  return useMutation({
    mutationFn: (studentId: string) =>
      apiRequest(api.attemptUnlock, {
        method: 'POST',
        body: { examId, studentId },
        schema: UnlockAttemptResponseSchema,
      }),
  });
}

/** For the creator's result detail: announcements made while the attempt was open, and who ended it. */
export function useResultLiveLog(resultId: string) {
  return useQuery({
    queryKey: liveKeys.result(resultId),
    queryFn: ({ signal }) => apiRequest(api.resultAnnouncements(resultId), { schema: ResultLiveLogSchema, signal }),
    retry: false,
  });
}
