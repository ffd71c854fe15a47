import type { AccessMode } from '@exam/domain/cohort';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../../config/paths.ts';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

const ACCESS_OPTIONS = [
  { value: 'link', label: 'accessCard.option.link' },
  { value: 'code', label: 'accessCard.option.code' },
  { value: 'roster', label: 'accessCard.option.roster' },
] as const;

/**
 * Who may start the exam (docs/product.md#access). The access code is write-only like the API key: left
 * blank it keeps the stored one; the server never sends it back.
 */
export function AccessCard({ examId, hasAccessCode }: { examId?: string; hasAccessCode: boolean }) {
  const { t } = useTranslation('editor');
  const { control, formState } = useFormContext<ExamFormInput>();
  const access = useWatch({ control, name: 'access' }) ?? 'link';
  const codeError = formState.errors.accessCode?.message;
  return (
    <Card>
      <CardHeader title={t('accessCard.access')} description={t('accessCard.whoMayStartThe')} />
      <CardBody className="flex flex-col gap-5">
        <Controller
          control={control}
          name="access"
          render={({ field }) => (
            <Field label={t('accessCard.whoMayStart')} className="max-w-md">
              <Select
                value={field.value ?? 'link'}
                options={ACCESS_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))}
                onValueChange={(v) => field.onChange(v as AccessMode)}
              />
            </Field>
          )}
        />
        {access === 'code' && (
          <Controller
            control={control}
            name="accessCode"
            render={({ field }) => (
              <Field
                label={t('accessCard.accessCode')}
                className="max-w-md"
                error={codeError}
                hint={hasAccessCode ? t('accessCard.aCodeIsSet') : t('accessCard.candidatesTypeThisCode')}
              >
                <Input
                  autoComplete="off"
                  value={field.value ?? ''}
                  onChange={(e) => field.onChange(e.target.value === '' ? undefined : e.target.value)}
                />
              </Field>
            )}
          />
        )}
        {access === 'roster' && (
          <p className="text-sm text-muted">
            {t('accessCard.onlyCandidatesWhoseId')}{' '}
            {examId ? (
              <Link className="font-medium text-brand-600 underline" to={paths.examRoster(examId)}>
                {t('accessCard.manageTheRosterAnd')}
              </Link>
            ) : (
              t('accessCard.saveTheExamThen')
            )}
          </p>
        )}
      </CardBody>
    </Card>
  );
}
