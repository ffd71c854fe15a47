import { UNANSWERED_POLICIES } from '@exam/domain/unanswered';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';

/** What an unanswered question scores at submission (the exam's unansweredPolicy, @exam/domain/unanswered). */
export function UnansweredPolicyField() {
  const { t } = useTranslation('editor');
  const { control } = useFormContext<ExamFormInput>();
  return (
    <Controller
      control={control}
      name="unansweredPolicy"
      render={({ field }) => (
        <fieldset className="rounded-lg border border-line p-4" aria-describedby="unanswered-policy-hint">
          <legend className="px-1 text-sm font-medium text-ink">{t('unansweredPolicyField.legend')}</legend>
          <p id="unanswered-policy-hint" className="text-sm text-muted">
            {t('unansweredPolicyField.hint')}
          </p>
          <div className="mt-2 flex flex-col gap-2">
            {UNANSWERED_POLICIES.map((option) => (
              <label key={option} className="flex cursor-pointer items-start gap-3 text-sm">
                <input
                  type="radio"
                  name={field.name}
                  value={option}
                  checked={(field.value ?? 'zero') === option}
                  onChange={() => field.onChange(option)}
                  onBlur={field.onBlur}
                  className="mt-1 accent-brand-600"
                />
                <span>
                  <span className="block font-medium text-ink">{t(`unansweredPolicyField.${option}.label`)}</span>
                  <span className="block text-muted">{t(`unansweredPolicyField.${option}.hint`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
    />
  );
}
