import { TranscriptResponseSchema, type TranscriptResponse } from '@exam/domain/llm';
import { ResultDetailSchema, type GradingEntry, type ResultDetail } from '@exam/domain/result';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { listResultsPage } from '../../../lib/results-api.ts';

/** Keys under 'results' so one invalidation refreshes the dashboard, submissions and details. */
export const gradingKeys = {
  results: ['results'] as const,
  candidate: (examId: string, candidateId: string) => ['results', 'candidate', examId, candidateId] as const,
  detail: (resultId: string) => ['results', 'detail', resultId] as const,
  transcript: (attemptId: string) => ['transcripts', attemptId] as const,
};

export function getResult(resultId: string): Promise<ResultDetail> {
  return apiRequest(api.result(resultId), { schema: ResultDetailSchema });
}

/** How often a result is read again while a coding question's tests are still running. */
export const TESTS_POLL_MS = 3000;

const testsRunning = (detail: ResultDetail | undefined) =>
  detail?.questionAnswers.some((qa) => qa.tests?.state === 'queued' || qa.tests?.state === 'running') ?? false;

export const resultQuery = (resultId: string) =>
  queryOptions({
    queryKey: gradingKeys.detail(resultId),
    queryFn: () => getResult(resultId),
    enabled: resultId !== '',
    // The grade run finishes after submission; its verdicts and points arrive without a reload.
    // So does the LMS's answer to a released score (the passback job sends it within seconds).
    refetchInterval: (query) =>
      testsRunning(query.state.data) || query.state.data?.lmsSync?.state === 'pending' ? TESTS_POLL_MS : false,
  });

export function useResult(resultId: string) {
  return useQuery(resultQuery(resultId));
}

/**
 * The result a grader link names (/creator/grade/{examId}/candidate/{candidateId}): the
 * exam's submission by that candidate ID, asked of the server, or else the id of a result itself (the
 * app's own links use result ids).
 */
export async function findCandidateResultId(examId: string, candidateId: string): Promise<string> {
  const page = await listResultsPage({ examId, studentId: candidateId }, null, 1);
  return page.results[0]?.id ?? candidateId;
}

export function useCandidateResultId(examId: string, candidateId: string) {
  return useQuery({
    queryKey: gradingKeys.candidate(examId, candidateId),
    queryFn: () => findCandidateResultId(examId, candidateId),
    enabled: examId !== '' && candidateId !== '',
  });
}

/** PATCH /api/results/{id}: the server applies the entries and recomputes the score. */
export function gradeResult(resultId: string, grading: GradingEntry[]): Promise<ResultDetail> {
  return apiRequest(api.result(resultId), {
    method: 'PATCH',
    body: { grading },
    schema: ResultDetailSchema,
  });
}

export function useGradeResult(resultId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (grading: GradingEntry[]) => gradeResult(resultId, grading),
    onSuccess: (detail) => {
      queryClient.setQueryData(gradingKeys.detail(resultId), detail);
      void queryClient.invalidateQueries({
        queryKey: gradingKeys.results,
        predicate: (q) => q.queryKey[1] !== 'detail',
      });
      void queryClient.invalidateQueries({ queryKey: ['insights'] });
    },
  });
}

/** GET /api/llm/attempts/{attemptId}/transcript (llm-gateway): the candidate's conversation with the assistant. */
export function getTranscript(attemptId: string): Promise<TranscriptResponse> {
  return apiRequest(api.transcript(attemptId), {
    schema: TranscriptResponseSchema,
  });
}

export function useTranscript(attemptId: string | undefined) {
  return useQuery({
    queryKey: gradingKeys.transcript(attemptId ?? ''),
    queryFn: () => getTranscript(attemptId ?? ''),
    enabled: Boolean(attemptId),
    retry: false,
  });
}

/** POST /api/results/{id}/release: shows (or hides) the result to its candidate; 409 while it awaits grading. */
export function releaseResult(resultId: string, released: boolean): Promise<ResultDetail> {
  return apiRequest(api.resultRelease(resultId), {
    method: 'POST',
    body: { released },
    schema: ResultDetailSchema,
  });
}

export function useReleaseResult(resultId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (released: boolean) => releaseResult(resultId, released),
    onSuccess: (detail) => {
      queryClient.setQueryData(gradingKeys.detail(resultId), detail);
      void queryClient.invalidateQueries({
        queryKey: gradingKeys.results,
        predicate: (q) => q.queryKey[1] !== 'detail',
      });
    },
  });
}
