import { ExamSchema } from '@exam/domain/exam';
import { ExamResultsSummarySchema, ResultListSchema, type ExamResultsSummary, type ResultSummary } from '@exam/domain/result';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** Every key starts with 'results' so a grading save can refresh all result views at once. */
export const resultKeys = {
  all: ['results'] as const,
  list: () => [...resultKeys.all, 'list'] as const,
  examSummaries: () => [...resultKeys.all, 'exam-summaries'] as const,
  questionCounts: () => [...resultKeys.all, 'question-counts'] as const,
};

/** GET /api/results (results-service): the creator's submitted results, newest first. */
export function listResults(): Promise<ResultSummary[]> {
  return apiRequest('/api/results', { schema: ResultListSchema }).then((data) => data.results);
}

/** GET /api/results/summary: started, submitted, graded and the mean graded score per exam. */
export function listExamSummaries(): Promise<ExamResultsSummary['exams']> {
  return apiRequest('/api/results/summary', { schema: ExamResultsSummarySchema }).then((data) => data.exams);
}

const ExamQuestionsSchema = z.object({ exams: z.array(ExamSchema.pick({ id: true, questions: true })) });

/** The question count of each exam, from exam-service (the summary cards show it). */
export function listQuestionCounts(): Promise<Map<string, number>> {
  return apiRequest('/api/exams/auth_exams', { schema: ExamQuestionsSchema }).then((data) => new Map(data.exams.map((e) => [e.id, e.questions.length])));
}

export const resultsQuery = () => queryOptions({ queryKey: resultKeys.list(), queryFn: listResults });

export function useResults() {
  return useQuery(resultsQuery());
}

export function useExamSummaries() {
  return useQuery({ queryKey: resultKeys.examSummaries(), queryFn: listExamSummaries });
}

export function useQuestionCounts() {
  return useQuery({ queryKey: resultKeys.questionCounts(), queryFn: listQuestionCounts });
}
