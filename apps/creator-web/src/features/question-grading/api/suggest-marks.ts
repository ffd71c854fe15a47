import {
  GradingSuggestionSchema,
  LatestSuggestionBatchSchema,
  SuggestionBatchSchema,
  type GradingSuggestion,
  type StartSuggestionBatchSchema,
  type SuggestionBatch,
} from '@exam/domain/question-grading';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { questionGradingKeys } from './get-question-answers.ts';

/** How often a running batch's progress is read again (as the solvability check's). */
export const SUGGESTION_BATCH_POLL_MS = 1500;

/**
 * POST /api/results/{resultId}/questions/{questionIndex}/suggestion: the AI's suggested mark for one answer
 * (201). For a group the grader's screen asks for the representative's answer; the mark then covers the group.
 */
export function suggestMark(resultId: string, questionIndex: number): Promise<GradingSuggestion> {
  return apiRequest(api.resultSuggestion(resultId, questionIndex), {
    method: 'POST',
    schema: GradingSuggestionSchema,
  });
}

export function useSuggestMark(examId: string, questionIndex: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resultId: string) => suggestMark(resultId, questionIndex),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: questionGradingKeys.question(examId, questionIndex) }),
  });
}

export function getLatestSuggestionBatch(examId: string, questionIndex: number): Promise<SuggestionBatch | null> {
  return apiRequest(api.latestSuggestionBatch(examId, questionIndex), { schema: LatestSuggestionBatchSchema }).then(
    (body) => body.batch,
  );
}

/**
 * The question's latest batch, read again every SUGGESTION_BATCH_POLL_MS while it runs. When it stops running
 * the answers are fetched again, so its suggestions appear beside them.
 */
export function useLatestSuggestionBatch(examId: string, questionIndex: number) {
  const queryClient = useQueryClient();
  const latest = useQuery({
    queryKey: questionGradingKeys.latestBatch(examId, questionIndex),
    queryFn: () => getLatestSuggestionBatch(examId, questionIndex),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? SUGGESTION_BATCH_POLL_MS : false),
  });
  const status = latest.data?.status;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && status !== 'running') {
      void queryClient.invalidateQueries({ queryKey: ['question-grading', examId, questionIndex, 'answers'] });
      void queryClient.invalidateQueries({ queryKey: questionGradingKeys.agreement(examId) });
    }
    wasRunning.current = status === 'running';
  }, [status, examId, questionIndex, queryClient]);
  return latest;
}

type StartBatch = z.input<typeof StartSuggestionBatchSchema>;

/** POST /api/exams/{examId}/questions/{questionIndex}/suggestions: a batch over the question's answers. */
export function useStartSuggestionBatch(examId: string, questionIndex: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartBatch) =>
      apiRequest(api.suggestionBatches(examId, questionIndex), { method: 'POST', body, schema: SuggestionBatchSchema }),
    onSuccess: (batch) => queryClient.setQueryData(questionGradingKeys.latestBatch(examId, questionIndex), batch),
  });
}

export function useCancelSuggestionBatch(examId: string, questionIndex: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (batchId: string) =>
      apiRequest(api.cancelSuggestionBatch(examId, questionIndex, batchId), {
        method: 'POST',
        schema: SuggestionBatchSchema,
      }),
    onSuccess: (batch) => queryClient.setQueryData(questionGradingKeys.latestBatch(examId, questionIndex), batch),
  });
}
