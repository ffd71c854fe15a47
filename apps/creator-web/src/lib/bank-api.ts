import {
  BankQuestionEnvelopeSchema,
  BankQuestionListSchema,
  type BankQuestion,
  type SaveBankQuestion,
} from '@exam/domain/bank';
import type { Question } from '@exam/domain/question';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../config/paths.ts';
import { apiRequest } from './api-client.ts';

/**
 * The creator's question bank (exam-service, /api/bank). Shared by the bank page and the exam editor's
 * "Add from bank" / "Save to bank", as results-api.ts is shared by the results views.
 */
export type BankFilters = { search?: string; topic?: string };

export const bankKeys = {
  all: ['bank'] as const,
  list: (filters: BankFilters) => ['bank', 'list', filters.search ?? '', filters.topic ?? ''] as const,
};

export function listBankQuestions(filters: BankFilters): Promise<BankQuestion[]> {
  const params = new URLSearchParams();
  if (filters.search?.trim()) params.set('search', filters.search.trim());
  if (filters.topic?.trim()) params.set('topic', filters.topic.trim());
  return apiRequest(api.bankQuestions(params.toString()), { schema: BankQuestionListSchema }).then((d) => d.questions);
}

export const bankQuestionsQuery = (filters: BankFilters) =>
  queryOptions({ queryKey: bankKeys.list(filters), queryFn: () => listBankQuestions(filters) });

export function useBankQuestions(filters: BankFilters, enabled = true) {
  return useQuery({ ...bankQuestionsQuery(filters), enabled });
}

export function saveBankQuestion(body: SaveBankQuestion): Promise<BankQuestion> {
  return apiRequest(api.bankQuestions(), { method: 'POST', body, schema: BankQuestionEnvelopeSchema }).then(
    (d) => d.bankQuestion,
  );
}

export function updateBankQuestion(bankId: string, question: Question): Promise<BankQuestion> {
  return apiRequest(api.bankQuestion(bankId), {
    method: 'PUT',
    body: { question },
    schema: BankQuestionEnvelopeSchema,
  }).then((d) => d.bankQuestion);
}

export function deleteBankQuestion(bankId: string): Promise<{ id: string }> {
  return apiRequest(api.bankQuestion(bankId), { method: 'DELETE', schema: z.object({ id: z.string() }) });
}

/** A mutation that refreshes every bank list once it succeeds. */
function useBankMutation<A, R>(run: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bankKeys.all }),
  });
}

export const useSaveBankQuestion = () => useBankMutation(saveBankQuestion);
export const useUpdateBankQuestion = () =>
  useBankMutation(({ bankId, question }: { bankId: string; question: Question }) =>
    updateBankQuestion(bankId, question),
  );
export const useDeleteBankQuestion = () => useBankMutation(deleteBankQuestion);
