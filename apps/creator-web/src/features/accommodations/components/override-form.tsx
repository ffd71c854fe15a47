import {
  MAX_ATTEMPTS_ALLOWED,
  MAX_TIME_FACTOR,
  OverrideInputSchema,
  type Override,
  type OverrideInput,
} from '@exam/domain/cohort';
import type { Exam } from '@exam/domain/exam';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { fromLocalInputValue, toLocalInputValue, zoneLabel } from '@exam/ui/lib/local-time';
import { toast } from '@exam/ui/toaster';
import { Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useSaveOverride } from '../api/manage-overrides.ts';
import { durationChange } from '../lib/duration.ts';
import { useTranslation } from 'react-i18next';

/** The form as typed: every field a string, blank meaning "the exam's". */
export type OverrideDraft = {
  studentId: string;
  extraMinutes: string;
  timeFactor: string;
  opensAt: string;
  closesAt: string;
  attemptsAllowed: string;
};
type FieldName = keyof OverrideDraft;
type Errors = Partial<Record<FieldName, string>>;

export const emptyDraft = (): OverrideDraft => ({
  studentId: '',
  extraMinutes: '',
  timeFactor: '',
  opensAt: '',
  closesAt: '',
  attemptsAllowed: '',
});

export function draftOf(override: Override): OverrideDraft {
  return {
    studentId: override.studentId,
    extraMinutes: override.extraMinutes === null ? '' : String(override.extraMinutes),
    timeFactor: override.timeFactor === null ? '' : String(override.timeFactor),
    opensAt: toLocalInputValue(override.opensAt),
    closesAt: toLocalInputValue(override.closesAt),
    attemptsAllowed: override.attemptsAllowed === null ? '' : String(override.attemptsAllowed),
  };
}

const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value.replace(',', '.')));

/**
 * The PUT body: every field is sent, a blank one as null, which clears it so the exam's setting applies
 * (an omitted field would keep what the candidate's override already said).
 */
export function toOverrideInput(draft: OverrideDraft): OverrideInput {
  return {
    extraMinutes: numberOrNull(draft.extraMinutes),
    timeFactor: numberOrNull(draft.timeFactor.replace(/^[×x]/i, '')),
    opensAt: fromLocalInputValue(draft.opensAt),
    closesAt: fromLocalInputValue(draft.closesAt),
    attemptsAllowed: numberOrNull(draft.attemptsAllowed),
  };
}

const FIELDS: FieldName[] = ['studentId', 'extraMinutes', 'timeFactor', 'opensAt', 'closesAt', 'attemptsAllowed'];

/** A 400's issues by form field: 'body.extraMinutes' and 'params.studentId' both name a field here. */
function errorsOf(issues: Array<{ path: string; message: string }>): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const name = issue.path.replace(/^(body|params)\./, '').split('.')[0] as FieldName;
    if (FIELDS.includes(name) && !errors[name]) errors[name] = issue.message;
  }
  return errors;
}

/** Add or change one candidate's accommodation; the resulting duration shows as it is typed. */
export function OverrideForm({
  exam,
  draft,
  onDraftChange,
}: {
  exam: Exam;
  draft: OverrideDraft;
  onDraftChange: (draft: OverrideDraft) => void;
}) {
  const { t } = useTranslation('accommodations');
  const save = useSaveOverride(exam.id);
  const [errors, setErrors] = useState<Errors>({});
  const set = (name: FieldName) => (value: string) => onDraftChange({ ...draft, [name]: value });
  const typed = toOverrideInput(draft);
  const duration = durationChange(exam, {
    extraMinutes: Number.isFinite(typed.extraMinutes) ? typed.extraMinutes : null,
    timeFactor: Number.isFinite(typed.timeFactor) ? typed.timeFactor : null,
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const studentId = draft.studentId.trim();
    const parsed = OverrideInputSchema.safeParse(typed);
    const next: Errors = parsed.success
      ? {}
      : errorsOf(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    if (!studentId) next.studentId = t('overrideForm.candidateIdIsRequired');
    setErrors(next);
    if (!parsed.success || !studentId) return;
    save.mutate(
      { studentId, body: parsed.data },
      {
        onSuccess: (saved) => {
          toast.success(t('overrideForm.accommodationSavedForStudentid', { studentId: saved.studentId }));
          onDraftChange(emptyDraft());
        },
        onError: (error) => {
          const fromServer = errorsOf(error instanceof ApiError ? error.issues : []);
          setErrors(fromServer);
          toast.error(
            Object.keys(fromServer).length > 0 ? t('overrideForm.pleaseFixTheHighlighted') : userMessageOf(error),
          );
        },
      },
    );
  }

  const input = (name: FieldName) => ({
    name,
    value: draft[name],
    onChange: (e: { target: { value: string } }) => set(name)(e.target.value),
    disabled: save.isPending,
  });

  return (
    <Card>
      <CardHeader title={t('overrideForm.addOrChangeAn')} description={t('overrideForm.blankFieldsKeepThe')} />
      <CardBody>
        <form
          className="flex flex-col gap-5"
          noValidate
          onSubmit={onSubmit}
          aria-label={t('overrideForm.accommodation')}
        >
          <Field label={t('overrideForm.candidateId')} error={errors.studentId} className="max-w-sm">
            <Input autoComplete="off" {...input('studentId')} />
          </Field>
          <div className="grid gap-5 md:grid-cols-2">
            <Field
              label={t('overrideForm.extraMinutes')}
              hint={t('overrideForm.addedToTheDuration')}
              error={errors.extraMinutes}
            >
              <Input type="number" min={0} step={1} inputMode="numeric" {...input('extraMinutes')} />
            </Field>
            <Field
              label={t('overrideForm.timeFactor')}
              hint={t('overrideForm.multipliesTheDurationE', { MAX_TIME_FACTOR })}
              error={errors.timeFactor}
            >
              <Input
                type="number"
                min={1}
                max={MAX_TIME_FACTOR}
                step={0.05}
                inputMode="decimal"
                {...input('timeFactor')}
              />
            </Field>
          </div>
          <p className="text-sm text-ink" data-testid="override-duration">
            {duration ? t('overrideForm.durationDuration', { duration }) : t('overrideForm.thisExamHasNo')}
          </p>
          <div className="grid gap-5 md:grid-cols-2">
            <Field
              label={t('overrideForm.ownWindowOpensAt')}
              hint={t('overrideForm.timesAreInZonelabel', { zoneLabel: zoneLabel() })}
              error={errors.opensAt}
            >
              <Input type="datetime-local" {...input('opensAt')} />
            </Field>
            <Field
              label={t('overrideForm.ownWindowClosesAt')}
              hint={t('overrideForm.blankTheExamS')}
              error={errors.closesAt}
            >
              <Input type="datetime-local" {...input('closesAt')} />
            </Field>
          </div>
          <Field
            label={t('overrideForm.attemptsAllowed')}
            hint={t('overrideForm.blankTheExamS2', { attemptsAllowed: exam.attemptsAllowed, MAX_ATTEMPTS_ALLOWED })}
            error={errors.attemptsAllowed}
            className="max-w-sm"
          >
            <Input
              type="number"
              min={1}
              max={MAX_ATTEMPTS_ALLOWED}
              step={1}
              inputMode="numeric"
              {...input('attemptsAllowed')}
            />
          </Field>
          <div>
            <Button type="submit" disabled={save.isPending}>
              <Save aria-hidden className="h-4 w-4" />{' '}
              {save.isPending ? t('overrideForm.saving') : t('overrideForm.saveAccommodation')}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
