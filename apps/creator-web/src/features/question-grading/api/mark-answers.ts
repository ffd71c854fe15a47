import {
  AnswerGroupsSchema,
  QuestionMarkReportSchema,
  type AnswerGroups,
  type DetachAnswer,
  type QuestionMark,
  type QuestionMarkReport,
} from '@exam/domain/question-grading';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { questionGradingKeys } from './get-question-answers.ts';

/** After a mark: this exam's answers and agreement, and the results and insights screens that show scores. */
function refreshAfterMarking(queryClient: QueryClient, examId: string) {
  void queryClient.invalidateQueries({ queryKey: questionGradingKeys.exam(examId) });
  void queryClient.invalidateQueries({ queryKey: ['results'] });
  void queryClient.invalidateQueries({ queryKey: ['insights'] });
}

/**
 * POST /api/exams/{examId}/questions/{questionIndex}/marks: one mark for every listed answer (a group's members,
 * or one answer), each with its own grade-history entry. With `suggestionId` the history says the AI suggested it.
 */
export function markAnswers(examId: string, questionIndex: number, mark: QuestionMark): Promise<QuestionMarkReport> {
  return apiRequest(api.questionMarks(examId, questionIndex), {
    method: 'POST',
    body: mark,
    schema: QuestionMarkReportSchema,
  });
}

export function useMarkAnswers(examId: string, questionIndex: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mark: QuestionMark) => markAnswers(examId, questionIndex, mark),
    onSuccess: () => refreshAfterMarking(queryClient, examId),
  });
}

/**
 * POST /api/exams/{examId}/questions/{questionIndex}/detachments: takes an answer out of its group to be marked
 * alone (or puts it back), answering the question's groups as they are now; the answers are fetched again.
 */
export function detachAnswer(examId: string, questionIndex: number, body: DetachAnswer): Promise<AnswerGroups> {
  return apiRequest(api.questionDetachments(examId, questionIndex), {
    method: 'POST',
    body,
    schema: AnswerGroupsSchema,
  });
}

export function useDetachAnswer(examId: string, questionIndex: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DetachAnswer) => detachAnswer(examId, questionIndex, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: questionGradingKeys.question(examId, questionIndex) }),
  });
}
