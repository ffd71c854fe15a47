import { canPlantError } from '@exam/domain/planted-errors';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';

/** Radix items cannot carry an empty value, so "no planted error" travels as this and becomes null. */
const NONE = '__none__';

/**
 * The error the assistant may be asked to state about this question when the exam's planted errors are on
 * (docs/product.md#reliance-calibration): one of the wrong options of a single-answer MCQ, or a wrong value of a
 * short answer. Shown for an eligible question (canPlantError), and for one that still names an error after it
 * stopped being eligible, so the domain's message (questions.N.plantedError) has a field to stand at.
 */
export function PlantedErrorField({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, formState } = useFormContext<ExamFormInput>();
  const on = useWatch({ control, name: 'aiSettings.plantedErrors.enabled' }) ?? false;
  const aiOn = useWatch({ control, name: 'aiSettings.enabled' }) ?? false;
  const q = useWatch({ control, name: `questions.${index}` });
  if (!on || !aiOn || !q) return null;
  const planted = q.plantedError ?? null;
  const eligible = canPlantError({
    type: q.type ?? 'mcq',
    multipleAnswers: q.multipleAnswers,
    options: q.options ?? [],
    correctAnswer: q.correctAnswer,
    acceptedAnswers: (q.acceptedAnswers ?? []).filter((a) => a.trim() !== ''),
  });
  if (!eligible && !planted) return null;
  const n = index + 1;
  const error = formState.errors.questions?.[index]?.plantedError?.message;
  const set = (value: string | null) => setValue(`questions.${index}.plantedError`, value, { shouldDirty: true });
  const label = t('plantedError.questionNPlantedError', { n });
  const hint = eligible ? t('plantedError.hint') : t('plantedError.notEligible');

  if (q.type === 'mcq') {
    const wrong = (q.options ?? []).filter((o) => o.trim() !== '' && o !== q.correctAnswer);
    // A named error no longer among the options still shows, so the creator sees what the message is about.
    const choices = planted && !wrong.includes(planted) ? [...wrong, planted] : wrong;
    return (
      <Field label={label} hint={hint} error={error} className="max-w-md">
        <Select
          value={planted ?? NONE}
          options={[{ value: NONE, label: t('plantedError.none') }, ...choices.map((o) => ({ value: o, label: o }))]}
          onValueChange={(v) => set(v === NONE ? null : v)}
        />
      </Field>
    );
  }
  return (
    <Field label={label} hint={hint} error={error} className="max-w-md">
      <Input
        value={planted ?? ''}
        placeholder={t('plantedError.valuePlaceholder')}
        onChange={(e) => set(e.target.value === '' ? null : e.target.value)}
      />
    </Field>
  );
}
