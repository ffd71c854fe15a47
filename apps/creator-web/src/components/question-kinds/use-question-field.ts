import { useFormContext, useWatch, type Path, type PathValue } from 'react-hook-form';
import { errorAt, type QuestionInput, type QuestionsForm } from '../../lib/question-form.ts';

type QuestionPath = Path<QuestionInput>;

/**
 * One question of the form at `questions.{index}`: its fields watched, set (dirty, and checked again once the
 * creator has tried to save, so a fixed field clears its message) and their messages, by the domain schema's paths
 * (questionKindIssues), so each shows at its field.
 */
export function useQuestionField(index: number) {
  const form = useFormContext<QuestionsForm>();
  const { setValue, formState, getValues } = form;
  const base = `questions.${index}` as const;
  const isSubmitted = formState.isSubmitted;
  const set = <P extends QuestionPath>(field: P, value: PathValue<QuestionInput, P>) =>
    setValue(`${base}.${field}` as Path<QuestionsForm>, value as never, {
      shouldDirty: true,
      shouldValidate: isSubmitted,
    });
  const get = <P extends QuestionPath>(field: P) =>
    getValues(`${base}.${field}` as Path<QuestionsForm>) as PathValue<QuestionInput, P>;
  const error = (field: string) => errorAt(formState.errors, `${base}.${field}`);
  return { form, base, set, get, error };
}

/** Watches one field of the question at `index`. */
export function useQuestionValue<P extends QuestionPath>(index: number, field: P): PathValue<QuestionInput, P> {
  const { control } = useFormContext<QuestionsForm>();
  return useWatch({ control, name: `questions.${index}.${field}` as Path<QuestionsForm> }) as PathValue<
    QuestionInput,
    P
  >;
}
