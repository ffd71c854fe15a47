import { ExamSchema, type Exam } from '@exam/domain/exam';
import type { Passage } from '@exam/domain/passages';
import type { Question } from '@exam/domain/question';
import type { QuestionAnswer } from '@exam/domain/result';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * GET /api/exams/{examId} (exam-service): the exam a result belongs to. A result's answers come as text; the
 * exam holds what lays them out for the grader (items, prompts, gaps, units, tolerance, essay limits) and the
 * shared passages' text. While it loads, or when it cannot be read, answers show as text.
 */
export const resultExamQuery = (examId: string) =>
  queryOptions({
    queryKey: ['results', 'exam', examId] as const,
    queryFn: () => apiRequest(api.exam(examId), { schema: ExamSchema }),
    enabled: examId !== '',
    staleTime: 60_000,
    retry: false,
  });

export function useResultExam(examId: string) {
  return useQuery(resultExamQuery(examId));
}

/** The exam's question a result's question is (by the exam's own index on shuffled or pooled exams), and its passage. */
export function examContextOf(
  exam: Exam | undefined,
  qa: Pick<QuestionAnswer, 'questionIndex' | 'examQuestionIndex' | 'questionType' | 'passageTitle'>,
): { examQuestion: Question | undefined; passage: Passage | undefined } {
  const candidate = exam?.questions[qa.examQuestionIndex ?? qa.questionIndex];
  const question = candidate?.type === qa.questionType ? candidate : undefined;
  const passages = exam?.passages ?? [];
  const passage =
    passages.find((p) => question?.passageId && p.id === question.passageId) ??
    (qa.passageTitle ? passages.find((p) => p.title === qa.passageTitle) : undefined);
  return { examQuestion: question, passage };
}
