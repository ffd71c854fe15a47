import type { QuestionDisplay } from '@exam/domain/exam';
import { Controller, useFormContext } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';

const OPTIONS: Array<{ value: QuestionDisplay; label: string; hint: string }> = [
  { value: 'all', label: 'All questions on one page', hint: 'Candidates scroll through every question.' },
  {
    value: 'one',
    label: 'One question at a time',
    hint: 'Candidates move with Previous and Next, and can still jump to any question.',
  },
];

/** How the candidate's page shows the questions (the exam's questionDisplay). */
export function QuestionDisplayField() {
  const { control } = useFormContext<ExamFormInput>();
  return (
    <Controller
      control={control}
      name="questionDisplay"
      render={({ field }) => (
        <fieldset className="rounded-lg border border-line p-4">
          <legend className="px-1 text-sm font-medium text-ink">Question display</legend>
          <div className="mt-1 flex flex-col gap-2">
            {OPTIONS.map((option) => (
              <label key={option.value} className="flex cursor-pointer items-start gap-3 text-sm">
                <input
                  type="radio"
                  name={field.name}
                  value={option.value}
                  checked={(field.value ?? 'all') === option.value}
                  onChange={() => field.onChange(option.value)}
                  onBlur={field.onBlur}
                  className="mt-1 accent-brand-600"
                />
                <span>
                  <span className="block font-medium text-ink">{option.label}</span>
                  <span className="block text-muted">{option.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
    />
  );
}
