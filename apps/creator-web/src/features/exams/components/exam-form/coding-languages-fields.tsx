import { CODING_LANGUAGES, type CodingLanguage } from '@exam/domain/question';
import { Textarea } from '@exam/ui/input';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../../../components/checkbox-field.tsx';
import type { ExamFormInput } from './exam-form-model.ts';
import { LANGUAGE_LABELS } from './question-editor.tsx';

/**
 * The further languages a candidate may choose for a coding question (docs/product.md#coding-questions), with the
 * starter code of each. Only for tests that read stdin and print stdout: a SQL question or an agentic task keeps one
 * language, and the domain's validation says so on `languages` if one slips through.
 */
export function CodingLanguagesFields({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, register, formState } = useFormContext<ExamFormInput>();
  const language = useWatch({ control, name: `questions.${index}.language` }) ?? 'python';
  const languages = (useWatch({ control, name: `questions.${index}.languages` }) ?? []) as CodingLanguage[];
  const repository = useWatch({ control, name: `questions.${index}.repository` });
  const error = formState.errors.questions?.[index]?.languages?.message;
  if (language === 'sql' || (repository && languages.length === 0)) return null;
  const extras = languages.filter((l) => l !== language);
  const toggle = (other: CodingLanguage, on: boolean) => {
    const next = on ? [...extras, other] : extras.filter((l) => l !== other);
    setValue(`questions.${index}.languages`, next.length ? [language, ...next] : [], {
      shouldDirty: true,
      shouldValidate: true,
    });
  };
  return (
    <fieldset className="flex flex-col gap-2" data-testid={`coding-languages-${index}`}>
      <legend className="text-sm font-medium text-ink">{t('codingFields.otherLanguages')}</legend>
      <p className="text-xs text-muted">{t('codingFields.otherLanguagesHint')}</p>
      <div className="flex flex-wrap gap-4">
        {CODING_LANGUAGES.filter((l) => l !== language && l !== 'sql').map((other) => (
          <CheckboxField
            key={other}
            label={LANGUAGE_LABELS[other]}
            checked={extras.includes(other)}
            onChange={(on) => toggle(other, on)}
          />
        ))}
      </div>
      {error && (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
      {extras.map((other) => (
        <label key={other} className="flex flex-col gap-1 text-sm text-ink">
          {t('codingFields.starterCodeIn', { language: LANGUAGE_LABELS[other] })}
          <Textarea rows={4} className="font-mono text-xs" {...register(`questions.${index}.starterCodes.${other}`)} />
        </label>
      ))}
    </fieldset>
  );
}
