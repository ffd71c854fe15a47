import type { QuestionDisplay } from '@exam/domain/exam';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';

const OPTIONS: QuestionDisplay[] = ['all', 'one'];

/** How the candidate's page shows the questions (the exam's questionDisplay). */
export function QuestionDisplayField() {
  const { t } = useTranslation('editor');
  const { control } = useFormContext<ExamFormInput>();
  return (
    <Controller
      control={control}
      name="questionDisplay"
      render={({ field }) => (
        <fieldset className="rounded-lg border border-line p-4">
          <legend className="px-1 text-sm font-medium text-ink">{t('questionDisplayField.legend')}</legend>
          <div className="mt-1 flex flex-col gap-2">
            {OPTIONS.map((option) => (
              <label key={option} className="flex cursor-pointer items-start gap-3 text-sm">
                <input
                  type="radio"
                  name={field.name}
                  value={option}
                  checked={(field.value ?? 'all') === option}
                  onChange={() => field.onChange(option)}
                  onBlur={field.onBlur}
                  className="mt-1 accent-brand-600"
                />
                <span>
                  <span className="block font-medium text-ink">{t(`questionDisplayField.${option}.label`)}</span>
                  <span className="block text-muted">{t(`questionDisplayField.${option}.hint`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
    />
  );
}
