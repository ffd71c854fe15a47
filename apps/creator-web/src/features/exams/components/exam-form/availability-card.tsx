import { KEEP_GRADES, MAX_ATTEMPTS_ALLOWED, type KeepGrade } from '@exam/domain/cohort';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { fromLocalInputValue, toLocalInputValue, zoneLabel } from '@exam/ui/lib/local-time';
import { Select } from '@exam/ui/select';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../../config/paths.ts';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

/** A date-time field in the creator's zone, holding ISO 8601 with the offset; empty is null (no limit). */
function InstantField({ name, label, hint }: { name: 'opensAt' | 'closesAt'; label: string; hint: string }) {
  const { t } = useTranslation('editor');
  const { control, formState } = useFormContext<ExamFormInput>();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="flex items-end gap-2">
          <Field label={label} hint={hint} error={formState.errors[name]?.message} className="flex-1">
            <Input
              type="datetime-local"
              name={field.name}
              ref={field.ref}
              value={toLocalInputValue(field.value)}
              onBlur={field.onBlur}
              onChange={(e) => field.onChange(fromLocalInputValue(e.target.value))}
            />
          </Field>
          {field.value && (
            <Button
              variant="ghost"
              size="sm"
              className="mb-6"
              aria-label={t('availabilityCard.clearLabel', { label: label.toLowerCase() })}
              onClick={() => field.onChange(null)}
            >
              {t('availabilityCard.clear')}
            </Button>
          )}
        </div>
      )}
    />
  );
}

/** When candidates may start, how often, and which attempt's grade counts (docs/product.md#cohorts). */
export function AvailabilityCard({ examId }: { examId?: string | undefined }) {
  const { t } = useTranslation('editor');
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const attempts = useWatch({ control, name: 'attemptsAllowed' });
  // A practice exam may be sat any number of times: the limit is kept but not applied (practice.ts).
  const practice = useWatch({ control, name: 'practice' }) ?? false;
  const { errors } = formState;
  return (
    <Card>
      <CardHeader
        title={t('availabilityCard.availability')}
        description={t('availabilityCard.whenCandidatesCanStart')}
      />
      <CardBody className="flex flex-col gap-5">
        <p className="text-sm text-muted" data-testid="availability-zone">
          {t('availabilityCard.timesAreInZonelabel', { zoneLabel: zoneLabel() })}
        </p>
        <div className="grid gap-5 md:grid-cols-2">
          <InstantField
            name="opensAt"
            label={t('availabilityCard.opensAt')}
            hint={t('availabilityCard.emptyOpenAsSoon')}
          />
          <InstantField
            name="closesAt"
            label={t('availabilityCard.closesAt')}
            hint={t('availabilityCard.attemptsStillInProgress')}
          />
        </div>
        <div className="grid gap-5 md:grid-cols-2">
          <Field
            label={t('availabilityCard.attemptsAllowed')}
            hint={
              practice
                ? t('availabilityCard.practiceUnlimited')
                : t('availabilityCard.n1ToMaxAttempts', { MAX_ATTEMPTS_ALLOWED })
            }
            error={errors.attemptsAllowed?.message}
          >
            <Input
              type="number"
              min={1}
              max={MAX_ATTEMPTS_ALLOWED}
              step={1}
              inputMode="numeric"
              className="max-w-40"
              disabled={practice}
              {...register('attemptsAllowed', { valueAsNumber: true })}
            />
          </Field>
          {typeof attempts === 'number' && attempts > 1 && !practice && (
            <Controller
              control={control}
              name="keepGrade"
              render={({ field }) => (
                <Field
                  label={t('availabilityCard.gradeKept')}
                  hint={t('availabilityCard.whichSubmittedAttemptCounts')}
                  error={errors.keepGrade?.message}
                >
                  <Select
                    value={field.value ?? 'highest'}
                    options={KEEP_GRADES.map((value) => ({ value, label: t(`availabilityCard.keepGrade.${value}`) }))}
                    onValueChange={(v) => field.onChange(v as KeepGrade)}
                  />
                </Field>
              )}
            />
          )}
        </div>
        <p className="text-sm text-muted">
          {examId ? (
            <Link className="font-medium text-brand-600 hover:underline" to={paths.examAccommodations(examId)}>
              {t('availabilityCard.accommodationsForSingleCandidates')}
            </Link>
          ) : (
            t('availabilityCard.saveTheExamTo')
          )}
        </p>
      </CardBody>
    </Card>
  );
}
