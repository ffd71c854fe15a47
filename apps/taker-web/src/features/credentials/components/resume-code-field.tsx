import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateServerMessage } from '../../../i18n/server-messages.ts';

/** The service's word that this candidate ID has an attempt elsewhere, and the field for that attempt's code. */
export function ResumeCodeField(props: {
  /** What the service said (translated when shown). */
  notice: string;
  field: UseFormRegisterReturn<'resumeCode'>;
  error: string | undefined;
  disabled: boolean;
}) {
  const { t } = useTranslation('credentials');
  return (
    <>
      <p role="status" className="rounded-md bg-warning/10 p-3 text-sm text-ink" data-testid="resume-code-notice">
        {translateServerMessage(props.notice)}
      </p>
      <Field label={t('resumeCode')} hint={t('resumeCodeHint')} error={props.error}>
        <Input
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          {...props.field}
          disabled={props.disabled}
          autoFocus
        />
      </Field>
    </>
  );
}
