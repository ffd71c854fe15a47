import {
  DEFAULT_FOLLOW_UP,
  FOLLOW_UP_MAX_QUESTIONS,
  FOLLOW_UP_MAX_SECONDS,
  FOLLOW_UP_MIN_SECONDS,
} from '@exam/domain/follow-up';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { SwitchField } from '@exam/ui/switch';
import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';

const MIN_LEVELS = 2;
const MAX_LEVELS = 6;

/**
 * Follow-up questions after submit (docs/product.md, "Follow-up questions"): the exam's assistant asks each candidate
 * about their own answers once they have submitted. The questions use the assistant's provider and key, so the
 * settings sit with the assistant's and mean nothing while it is off.
 */
export function FollowUpFields() {
  const { t } = useTranslation('editor');
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const enabled = useWatch({ control, name: 'aiSettings.followUp.enabled' }) ?? false;
  const errors = formState.errors.aiSettings?.followUp;
  return (
    <fieldset className="flex flex-col gap-4 rounded-lg border border-line p-4" data-testid="follow-up-settings">
      <legend className="px-1 text-sm font-medium text-ink">{t('followUp.legend')}</legend>
      <Controller
        control={control}
        name="aiSettings.followUp.enabled"
        render={({ field }) => (
          <SwitchField
            label={t('followUp.toggle')}
            hint={t('followUp.toggleHint')}
            checked={field.value ?? false}
            onCheckedChange={field.onChange}
          />
        )}
      />
      {enabled && (
        <>
          <div className="grid gap-5 md:grid-cols-2">
            <Field
              label={t('followUp.questions')}
              hint={t('followUp.questionsHint', { max: FOLLOW_UP_MAX_QUESTIONS })}
              error={errors?.questions?.message}
            >
              <Input
                type="number"
                min={1}
                max={FOLLOW_UP_MAX_QUESTIONS}
                step={1}
                {...register('aiSettings.followUp.questions', { valueAsNumber: true })}
              />
            </Field>
            <TimePerQuestion error={errors?.secondsPerQuestion?.message} />
          </div>
          <RubricLevels />
          <ul className="list-disc pl-5 text-xs text-muted">
            <li>{t('followUp.explainAsks')}</li>
            <li>{t('followUp.explainMarks')}</li>
            <li>{t('followUp.explainSkipped')}</li>
          </ul>
        </>
      )}
    </fieldset>
  );
}

/** Typed as minutes and seconds, stored as seconds; a blank box counts as 0, both blank is no number at all. */
function TimePerQuestion({ error }: { error: string | undefined }) {
  const { t } = useTranslation('editor');
  const { control } = useFormContext<ExamFormInput>();
  const id = useId();
  const describedBy = `${id}-hint${error ? ` ${id}-error` : ''}`;
  return (
    <Controller
      control={control}
      name="aiSettings.followUp.secondsPerQuestion"
      render={({ field }) => {
        const total = field.value ?? DEFAULT_FOLLOW_UP.secondsPerQuestion;
        const known = Number.isFinite(total);
        const minutes = known ? Math.floor(total / 60) : '';
        const seconds = known ? total % 60 : '';
        const set = (nextMinutes: string, nextSeconds: string) =>
          field.onChange(
            nextMinutes === '' && nextSeconds === ''
              ? Number.NaN
              : Number(nextMinutes || 0) * 60 + Number(nextSeconds || 0),
          );
        return (
          <fieldset className="flex flex-col gap-1.5">
            <legend className="mb-1.5 text-sm font-medium text-ink">{t('followUp.time')}</legend>
            <div className="flex items-center gap-2">
              <Input
                id={`${id}-minutes`}
                type="number"
                className="w-20"
                min={0}
                max={FOLLOW_UP_MAX_SECONDS / 60}
                step={1}
                value={minutes}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                onChange={(e) => set(e.target.value, String(seconds))}
                onBlur={field.onBlur}
              />
              <label htmlFor={`${id}-minutes`} className="text-sm text-ink">
                {t('followUp.minutes')}
              </label>
              <Input
                id={`${id}-seconds`}
                type="number"
                className="w-20"
                min={0}
                max={59}
                step={1}
                value={seconds}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                onChange={(e) => set(String(minutes), e.target.value)}
                onBlur={field.onBlur}
              />
              <label htmlFor={`${id}-seconds`} className="text-sm text-ink">
                {t('followUp.seconds')}
              </label>
            </div>
            <p id={`${id}-hint`} className="text-xs text-muted">
              {t('followUp.timeHint', { min: FOLLOW_UP_MIN_SECONDS, max: FOLLOW_UP_MAX_SECONDS / 60 })}
            </p>
            {error && (
              <p id={`${id}-error`} role="alert" className="text-xs text-danger">
                {error}
              </p>
            )}
          </fieldset>
        );
      }}
    />
  );
}

/** The levels a grader picks from for each follow-up answer, best first (FollowUpSettingsSchema: 2 to 6). */
function RubricLevels() {
  const { t } = useTranslation('editor');
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const levels = useFieldArray({ control, name: 'aiSettings.followUp.rubric', keyName: 'key' });
  const errors = formState.errors.aiSettings?.followUp?.rubric;
  const count = levels.fields.length;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-sm font-medium text-ink">{t('followUp.rubric')}</legend>
      <p className="text-xs text-muted">{t('followUp.rubricHint', { min: MIN_LEVELS, max: MAX_LEVELS })}</p>
      {levels.fields.map((field, i) => {
        const n = i + 1;
        return (
          <div key={field.key} className="flex flex-wrap items-end gap-2">
            <Field
              label={t('followUp.levelLabel', { n })}
              error={errors?.[i]?.label?.message}
              className="min-w-56 flex-1"
            >
              <Input {...register(`aiSettings.followUp.rubric.${i}.label`)} />
            </Field>
            <Field label={t('followUp.levelPoints', { n })} error={errors?.[i]?.points?.message} className="w-32">
              <Input
                type="number"
                min={0}
                max={100}
                step={0.5}
                {...register(`aiSettings.followUp.rubric.${i}.points`, { valueAsNumber: true })}
              />
            </Field>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t('followUp.removeLevel', { n })}
              disabled={count <= MIN_LEVELS}
              onClick={() => levels.remove(i)}
            >
              <Trash2 aria-hidden className="h-4 w-4" />
            </Button>
          </div>
        );
      })}
      {(errors?.message ?? errors?.root?.message) && (
        <p role="alert" className="text-xs text-danger">
          {errors?.message ?? errors?.root?.message}
        </p>
      )}
      <Button
        variant="secondary"
        size="sm"
        className="self-start"
        disabled={count >= MAX_LEVELS}
        onClick={() => levels.append({ label: '', points: 0 })}
      >
        <Plus aria-hidden className="h-4 w-4" /> {t('followUp.addLevel')}
      </Button>
    </fieldset>
  );
}
