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

const KEEP_GRADE_LABELS: Record<KeepGrade, string> = {
  highest: 'Highest attempt',
  last: 'Last attempt',
  first: 'First attempt',
};
const KEEP_GRADE_OPTIONS = KEEP_GRADES.map((value) => ({ value, label: KEEP_GRADE_LABELS[value] }));

/** A date-time field in the creator's zone, holding ISO 8601 with the offset; empty is null (no limit). */
function InstantField({ name, label, hint }: { name: 'opensAt' | 'closesAt'; label: string; hint: string }) {
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
              aria-label={`Clear ${label.toLowerCase()}`}
              onClick={() => field.onChange(null)}
            >
              Clear
            </Button>
          )}
        </div>
      )}
    />
  );
}

/** When candidates may start, how often, and which attempt's grade counts (docs/product.md#cohorts). */
export function AvailabilityCard({ examId }: { examId?: string | undefined }) {
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const attempts = useWatch({ control, name: 'attemptsAllowed' });
  const { errors } = formState;
  return (
    <Card>
      <CardHeader
        title="Availability"
        description="When candidates can start the exam, and how many attempts each one has."
      />
      <CardBody className="flex flex-col gap-5">
        <p className="text-sm text-muted" data-testid="availability-zone">
          Times are in {zoneLabel()}
        </p>
        <div className="grid gap-5 md:grid-cols-2">
          <InstantField name="opensAt" label="Opens at" hint="Empty: open as soon as the exam is live." />
          <InstantField name="closesAt" label="Closes at" hint="Attempts still in progress are submitted then." />
        </div>
        <div className="grid gap-5 md:grid-cols-2">
          <Field
            label="Attempts allowed"
            hint={`1 to ${MAX_ATTEMPTS_ALLOWED} per candidate.`}
            error={errors.attemptsAllowed?.message}
          >
            <Input
              type="number"
              min={1}
              max={MAX_ATTEMPTS_ALLOWED}
              step={1}
              inputMode="numeric"
              className="max-w-40"
              {...register('attemptsAllowed', { valueAsNumber: true })}
            />
          </Field>
          {typeof attempts === 'number' && attempts > 1 && (
            <Controller
              control={control}
              name="keepGrade"
              render={({ field }) => (
                <Field label="Grade kept" hint="Which submitted attempt counts." error={errors.keepGrade?.message}>
                  <Select
                    value={field.value ?? 'highest'}
                    options={KEEP_GRADE_OPTIONS}
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
              Accommodations for single candidates
            </Link>
          ) : (
            'Save the exam to give single candidates extra time, their own window or more attempts.'
          )}
        </p>
      </CardBody>
    </Card>
  );
}
