import { ChosenLanguagesSchema, LanguageChoiceResultSchema, type RunLanguage } from '@exam/domain/coding';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

type AttemptCredentials = { attemptId: string; token: string };

const chosenKey = (attemptId: string) => ['attempts', attemptId, 'languages'] as const;

/** The languages the candidate chose so far (GET …/languages), for questions that offer several. */
export function useChosenLanguage(attempt: AttemptCredentials | null, questionIndex: number, enabled: boolean) {
  const query = useQuery({
    queryKey: chosenKey(attempt?.attemptId ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(api.languages(attempt!.attemptId), { token: attempt!.token, schema: ChosenLanguagesSchema, signal }),
    enabled: enabled && attempt !== null,
    staleTime: Infinity,
  });
  return query.data?.languages[String(questionIndex)];
}

/** PUT …/questions/{index}/language: keeps the choice with the attempt, so runs, a reload and grading agree. */
export function useChooseLanguage(attempt: AttemptCredentials | null, questionIndex: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: RunLanguage) =>
      apiRequest(api.language(attempt!.attemptId, questionIndex), {
        method: 'PUT',
        token: attempt!.token,
        body: { language },
        schema: LanguageChoiceResultSchema,
      }),
    onSuccess: ({ language }) => {
      if (!attempt) return;
      queryClient.setQueryData(
        chosenKey(attempt.attemptId),
        (old: { languages: Record<string, RunLanguage> } | undefined) => ({
          languages: { ...old?.languages, [String(questionIndex)]: language },
        }),
      );
    },
  });
}
