import type { AccessMode } from '@exam/domain/cohort';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../../config/paths.ts';
import type { ExamFormInput } from './exam-form-model.ts';

const ACCESS_OPTIONS = [
  { value: 'link', label: 'Anyone with the link' },
  { value: 'code', label: 'Anyone with the link and the access code' },
  { value: 'roster', label: 'Only candidates on the roster' },
];

/**
 * Who may start the exam (docs/product.md#access). The access code is write-only like the API key: left
 * blank it keeps the stored one; the server never sends it back.
 */
export function AccessCard({ examId, hasAccessCode }: { examId?: string; hasAccessCode: boolean }) {
  const { control, formState } = useFormContext<ExamFormInput>();
  const access = useWatch({ control, name: 'access' }) ?? 'link';
  const codeError = formState.errors.accessCode?.message;
  return (
    <Card>
      <CardHeader title="Access" description="Who may start the exam." />
      <CardBody className="flex flex-col gap-5">
        <Controller
          control={control}
          name="access"
          render={({ field }) => (
            <Field label="Who May Start" className="max-w-md">
              <Select
                value={field.value ?? 'link'}
                options={ACCESS_OPTIONS}
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
                label="Access Code"
                className="max-w-md"
                error={codeError}
                hint={
                  hasAccessCode
                    ? 'A code is set. Type a new one to replace it, or leave blank to keep it.'
                    : 'Candidates type this code on the start page (at least 4 characters).'
                }
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
            Only candidates whose ID is on the roster can start; each is recorded under the roster&apos;s name.{' '}
            {examId ? (
              <Link className="font-medium text-brand-600 underline" to={paths.examRoster(examId)}>
                Manage the roster and invitations
              </Link>
            ) : (
              'Save the exam, then add candidates from its roster page.'
            )}
          </p>
        )}
      </CardBody>
    </Card>
  );
}
