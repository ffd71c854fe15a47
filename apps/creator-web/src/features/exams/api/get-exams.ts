import { ExamListSchema, ExamSchema, type Exam } from '@exam/domain/exam';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const examKeys = {
  all: ['exams'] as const,
  list: () => [...examKeys.all, 'list'] as const,
  detail: (examId: string) => [...examKeys.all, 'detail', examId] as const,
};

export function listMyExams(): Promise<Exam[]> {
  return apiRequest(api.myExams, { schema: ExamListSchema }).then((data) => data.exams);
}

export function getExam(examId: string): Promise<Exam> {
  return apiRequest(api.exam(examId), { schema: ExamSchema });
}

export const myExamsQuery = () => queryOptions({ queryKey: examKeys.list(), queryFn: listMyExams });
export const examQuery = (examId: string) =>
  queryOptions({ queryKey: examKeys.detail(examId), queryFn: () => getExam(examId) });

export function useMyExams() {
  return useQuery(myExamsQuery());
}

export function useExam(examId: string) {
  return useQuery(examQuery(examId));
}
