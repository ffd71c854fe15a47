import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import type { UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CredentialsValues } from '../lib/credentials-schema.ts';

/**
 * Full name and candidate ID. An invitation or an LMS launch fills and locks them (the form holds its values);
 * another candidate ID is another attempt, which `onStudentIdChange` is told.
 */
export function IdentityFields(props: {
  register: UseFormRegister<CredentialsValues>;
  errors: { name: string | undefined; studentId: string | undefined };
  locked: boolean;
  disabled: boolean;
  onStudentIdChange: () => void;
}) {
  const { t } = useTranslation('credentials');
  return (
    <>
      <Field label={t('fullName')} error={props.errors.name}>
        <Input
          autoComplete="name"
          required
          {...props.register('name')}
          readOnly={props.locked}
          disabled={props.disabled}
        />
      </Field>
      <Field label={t('candidateId')} error={props.errors.studentId}>
        <Input
          required
          {...props.register('studentId', { onChange: props.onStudentIdChange })}
          readOnly={props.locked}
          disabled={props.disabled}
        />
      </Field>
    </>
  );
}
