import { testPoints } from '@exam/domain/coding';
import { formatPoints } from '@exam/domain/grading';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { useFormContext, useWatch } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../../../components/checkbox-field.tsx';

const SCORING_OPTIONS = [
  { value: 'all-or-nothing', label: 'questionScoring.option.allOrNothing' },
  { value: 'partial', label: 'questionScoring.option.partial' },
] as const;
const TOLERANCE_OPTIONS = [
  { value: 'absolute', label: 'questionScoring.option.absolute' },
  { value: 'relative', label: 'questionScoring.option.relative' },
] as const;
/** Radix items cannot carry an empty value, so "no rubric" travels as this and becomes null. */
const NO_RUBRIC = 'none';

/** Points of the question: any positive number with at most two decimals (docs/product.md#results-and-grading). */
export function PointsField({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { register, formState, control } = useFormContext<ExamFormInput>();
  const type = useWatch({ control, name: `questions.${index}.type` });
  const tests = useWatch({ control, name: `questions.${index}.tests` }) ?? [];
  // A coding question graded by tests is worth the sum of its tests' points (the schema sets it on save).
  if (type === 'coding' && tests.length > 0) {
    const sum = testPoints(tests.map((t) => ({ points: Number.isFinite(t.points) ? (t.points ?? 1) : 0 })));
    return (
      <Field label={t('questionScoring.points')} hint={t('questionScoring.sumOfTestPoints')} className="max-w-40">
        <Input value={formatPoints(sum)} readOnly data-testid={`question-points-${index}`} />
      </Field>
    );
  }
  return (
    <Field
      label={t('questionScoring.points')}
      error={formState.errors.questions?.[index]?.points?.message}
      className="max-w-40"
    >
      <Input
        type="number"
        min={0.01}
        step={0.01}
        inputMode="decimal"
        {...register(`questions.${index}.points`, { valueAsNumber: true })}
      />
    </Field>
  );
}

/** The multiple-answers switch of an MCQ, and its scoring rule when several answers are correct. */
export function MultipleAnswersFields({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, getValues } = useFormContext<ExamFormInput>();
  const multiple = useWatch({ control, name: `questions.${index}.multipleAnswers` }) ?? false;
  const scoring = useWatch({ control, name: `questions.${index}.scoring` }) ?? 'all-or-nothing';

  // Switching carries the key across: the single correct option becomes the one ticked box and back.
  const toggle = (on: boolean) => {
    const correctAnswer = getValues(`questions.${index}.correctAnswer`);
    const correctAnswers = getValues(`questions.${index}.correctAnswers`);
    setValue(`questions.${index}.multipleAnswers`, on, { shouldDirty: true });
    if (on) {
      setValue(`questions.${index}.correctAnswers`, correctAnswer ? [correctAnswer] : [], { shouldDirty: true });
      setValue(`questions.${index}.correctAnswer`, '', { shouldDirty: true });
    } else {
      setValue(`questions.${index}.correctAnswer`, correctAnswers?.[0] ?? '', { shouldDirty: true });
      setValue(`questions.${index}.correctAnswers`, [], { shouldDirty: true });
    }
  };

  return (
    <div className="flex flex-wrap items-end gap-4">
      <CheckboxField label={t('questionScoring.severalAnswersAreCorrect')} checked={multiple} onChange={toggle} />
      {multiple && (
        <Field label={t('questionScoring.scoring')} className="w-48">
          <Select
            value={scoring}
            options={SCORING_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))}
            onValueChange={(v) =>
              setValue(`questions.${index}.scoring`, v as 'all-or-nothing' | 'partial', { shouldDirty: true })
            }
          />
        </Field>
      )}
    </div>
  );
}

/** Short answers: case sensitivity (text answers only) or numeric matching within a tolerance. */
export function MatchingFields({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, register, formState } = useFormContext<ExamFormInput>();
  const matching = useWatch({ control, name: `questions.${index}.matching` });
  const numeric = matching?.numeric ?? null;
  const errors = formState.errors.questions?.[index]?.matching;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-4">
        {/* Letter case means nothing to a number: the option is offered only while the answer is text. */}
        {numeric === null && (
          <CheckboxField
            label={t('questionScoring.caseSensitive')}
            checked={matching?.caseSensitive ?? false}
            onChange={(on) => setValue(`questions.${index}.matching.caseSensitive`, on, { shouldDirty: true })}
          />
        )}
        <CheckboxField
          label={t('questionScoring.numericAnswer')}
          checked={numeric !== null}
          onChange={(on) => {
            setValue(`questions.${index}.matching.numeric`, on ? { tolerance: 0, mode: 'absolute' } : null, {
              shouldDirty: true,
            });
            if (on) setValue(`questions.${index}.matching.caseSensitive`, false, { shouldDirty: true });
          }}
        />
      </div>
      {numeric && (
        <div className="flex flex-wrap gap-4">
          <Field label={t('questionScoring.tolerance')} error={errors?.numeric?.tolerance?.message} className="w-40">
            <Input
              type="number"
              min={0}
              step="any"
              inputMode="decimal"
              {...register(`questions.${index}.matching.numeric.tolerance`, { valueAsNumber: true })}
            />
          </Field>
          <Field label={t('questionScoring.toleranceType')} className="w-40">
            <Select
              value={numeric.mode ?? 'absolute'}
              options={TOLERANCE_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))}
              onValueChange={(v) =>
                setValue(`questions.${index}.matching.numeric.mode`, v as 'absolute' | 'relative', {
                  shouldDirty: true,
                })
              }
            />
          </Field>
        </div>
      )}
    </div>
  );
}

/** The exam's rubric the grader ticks for this question; server errors (questions.N.rubricId) show here. */
export function RubricSelect({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, formState } = useFormContext<ExamFormInput>();
  const rubrics = useWatch({ control, name: 'rubrics' }) ?? [];
  const rubricId = useWatch({ control, name: `questions.${index}.rubricId` }) ?? null;
  const options = [
    { value: NO_RUBRIC, label: t('questionScoring.none') },
    ...rubrics.map((r, i) => ({
      value: r.id,
      label: r.title?.trim() || t('questionScoring.rubricValue', { value: i + 1 }),
    })),
  ];
  return (
    <Field
      label={t('questionScoring.rubric')}
      error={formState.errors.questions?.[index]?.rubricId?.message}
      className="max-w-72"
    >
      <Select
        value={rubricId ?? NO_RUBRIC}
        options={options}
        onValueChange={(v) =>
          setValue(`questions.${index}.rubricId`, v === NO_RUBRIC ? null : v, { shouldDirty: true })
        }
      />
    </Field>
  );
}

/** Whether the question as edited has a key the server scores by; without one a grader decides. */
export function useHasKey(index: number): boolean {
  const { control } = useFormContext<ExamFormInput>();
  const q = useWatch({ control, name: `questions.${index}` });
  if (!q) return false;
  if (q.type === 'mcq') return q.multipleAnswers ? (q.correctAnswers ?? []).length > 0 : Boolean(q.correctAnswer);
  if (q.type === 'short-answer') return (q.acceptedAnswers ?? []).some((a) => a.trim() !== '');
  return true;
}
