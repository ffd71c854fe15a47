import { ExamSchema, type Exam } from '@exam/domain/exam';
import { QuestionAnswersSchema, type QuestionAnswers } from '@exam/domain/question-grading';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Every key under ['question-grading', examId], so a mark refreshes the answers, the agreement and the batch. */
export const questionGradingKeys = {
  exam: (examId: string) => ['question-grading', examId] as const,
  question: (examId: string, questionIndex: number) => ['question-grading', examId, questionIndex] as const,
  answers: (examId: string, questionIndex: number, names: boolean) =>
    ['question-grading', examId, questionIndex, 'answers', names] as const,
  latestBatch: (examId: string, questionIndex: number) =>
    ['question-grading', examId, questionIndex, 'latest-batch'] as const,
  agreement: (examId: string) => ['question-grading', examId, 'agreement'] as const,
  questions: (examId: string) => ['question-grading', examId, 'questions'] as const,
};

/**
 * GET /api/exams/{examId}/questions/{questionIndex}/answers (results-service): the question, every answer to it
 * with its group, suggestion and mark, progress, comment bank and whether suggestions can be asked for.
 * Candidates' names come only with `names` (anonymous grading).
 */
export function getQuestionAnswers(examId: string, questionIndex: number, names: boolean): Promise<QuestionAnswers> {
  return apiRequest(api.questionAnswers(examId, questionIndex, names), { schema: QuestionAnswersSchema });
}

export const questionAnswersQuery = (examId: string, questionIndex: number, names: boolean) =>
  queryOptions({
    queryKey: questionGradingKeys.answers(examId, questionIndex, names),
    queryFn: () => getQuestionAnswers(examId, questionIndex, names),
    // Showing or hiding names keeps the answers on screen until the other view arrives.
    placeholderData: keepPreviousData,
  });

export function useQuestionAnswers(examId: string, questionIndex: number, names: boolean) {
  return useQuery(questionAnswersQuery(examId, questionIndex, names));
}

/**
 * GET /api/exams/{examId} (exam-service): the exam, for the question picker and for what lays the answers of the
 * further types out (items, prompts, gaps, units, essay limits) and the shared passages' text.
 */
export function getGradingExam(examId: string): Promise<Exam> {
  return apiRequest(api.exam(examId), { schema: ExamSchema });
}

const gradingExamQuery = (examId: string) =>
  queryOptions({ queryKey: questionGradingKeys.questions(examId), queryFn: () => getGradingExam(examId) });

export function useGradingExam(examId: string) {
  return useQuery(gradingExamQuery(examId));
}

export function useExamQuestions(examId: string) {
  return useQuery({ ...gradingExamQuery(examId), select: (exam) => exam.questions });
}
