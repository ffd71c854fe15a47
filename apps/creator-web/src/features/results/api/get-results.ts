import { ExamSchema } from '@exam/domain/exam';
import { ExamResultsSummarySchema, type ExamResultsSummary } from '@exam/domain/result';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { listResultsPage, type ResultFilters } from '../../../lib/results-api.ts';

/** Every key starts with 'results' so a grading save can refresh all result views at once. */
export const resultKeys = {
  all: ['results'] as const,
  list: () => [...resultKeys.all, 'list'] as const,
  examSummaries: () => [...resultKeys.all, 'exam-summaries'] as const,
  questionCounts: () => [...resultKeys.all, 'question-counts'] as const,
};

/** GET /api/results/summary: started, submitted, graded and the mean graded score per exam. */
export function listExamSummaries(): Promise<ExamResultsSummary['exams']> {
  return apiRequest(api.resultsSummary, { schema: ExamResultsSummarySchema }).then((data) => data.exams);
}

const ExamQuestionsSchema = z.object({ exams: z.array(ExamSchema.pick({ id: true, questions: true })) });

/** The question count of each exam, from exam-service (the summary cards show it). */
export function listQuestionCounts(): Promise<Map<string, number>> {
  return apiRequest(api.myExams, { schema: ExamQuestionsSchema }).then(
    (data) => new Map(data.exams.map((e) => [e.id, e.questions.length])),
  );
}

/** Pages of results under `filters`, fetched one at a time as the view asks for more ('Load more'). */
export const resultPagesQuery = (filters: ResultFilters) =>
  infiniteQueryOptions({
    queryKey: [...resultKeys.list(), filters],
    queryFn: ({ pageParam }) => listResultsPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // A new search or filter keeps the rows on screen until its first page arrives.
    placeholderData: keepPreviousData,
  });

export function useResultPages(filters: ResultFilters) {
  const query = useInfiniteQuery(resultPagesQuery(filters));
  const results = query.data?.pages.flatMap((page) => page.results);
  return { ...query, results };
}

export function useExamSummaries() {
  return useQuery({ queryKey: resultKeys.examSummaries(), queryFn: listExamSummaries });
}

export function useQuestionCounts() {
  return useQuery({ queryKey: resultKeys.questionCounts(), queryFn: listQuestionCounts });
}
