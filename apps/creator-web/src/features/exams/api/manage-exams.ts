import { ExamSchema, type CreateExam, type Exam, type UpdateExam } from '@exam/domain/exam';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { examKeys } from './get-exams.ts';

export function createExam(body: CreateExam): Promise<Exam> {
  return apiRequest(api.exams, { method: 'POST', body, schema: z.object({ exam: ExamSchema }) }).then(
    (data) => data.exam,
  );
}

export function updateExam(examId: string, body: UpdateExam): Promise<Exam> {
  return apiRequest(api.exam(examId), { method: 'PUT', body, schema: ExamSchema });
}

export function deleteExam(examId: string): Promise<{ id: string }> {
  return apiRequest(api.exam(examId), {
    method: 'DELETE',
    schema: z.object({ id: z.string() }),
  });
}

export function useCreateExam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createExam,
    onSuccess: (exam) => {
      queryClient.setQueryData(examKeys.detail(exam.id), exam);
      return queryClient.invalidateQueries({ queryKey: examKeys.list() });
    },
  });
}

export function useUpdateExam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ examId, body }: { examId: string; body: UpdateExam }) => updateExam(examId, body),
    onSuccess: (exam) => {
      queryClient.setQueryData(examKeys.detail(exam.id), exam);
      return queryClient.invalidateQueries({ queryKey: examKeys.list() });
    },
  });
}

/** The Live/Offline switch: the list changes at once and goes back if the server refuses. */
export function useSetExamLive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ examId, isLive }: { examId: string; isLive: boolean }) => updateExam(examId, { isLive }),
    onMutate: async ({ examId, isLive }) => {
      await queryClient.cancelQueries({ queryKey: examKeys.list() });
      const previousList = queryClient.getQueryData<Exam[]>(examKeys.list());
      const previousExam = queryClient.getQueryData<Exam>(examKeys.detail(examId));
      queryClient.setQueryData<Exam[]>(examKeys.list(), (exams) =>
        exams?.map((e) => (e.id === examId ? { ...e, isLive } : e)),
      );
      if (previousExam) queryClient.setQueryData<Exam>(examKeys.detail(examId), { ...previousExam, isLive });
      return { previousList, previousExam };
    },
    onError: (_error, { examId }, context) => {
      if (context?.previousList) queryClient.setQueryData(examKeys.list(), context.previousList);
      if (context?.previousExam) queryClient.setQueryData(examKeys.detail(examId), context.previousExam);
    },
    onSuccess: (exam) => {
      queryClient.setQueryData(examKeys.detail(exam.id), exam);
      queryClient.setQueryData<Exam[]>(examKeys.list(), (exams) => exams?.map((e) => (e.id === exam.id ? exam : e)));
    },
  });
}

export function useDeleteExam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (examId: string) => deleteExam(examId),
    onSuccess: ({ id }) => {
      queryClient.setQueryData<Exam[]>(examKeys.list(), (exams) => exams?.filter((e) => e.id !== id));
      queryClient.removeQueries({ queryKey: examKeys.detail(id) });
    },
  });
}
