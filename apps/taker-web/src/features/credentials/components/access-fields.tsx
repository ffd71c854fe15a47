import { ACCESS_CODE_FIELD } from '@exam/domain/roster';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/** The refusal of a start that is about the access code (403 naming accessCode), as the field's message. */
export function accessCodeError(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 403) return undefined;
  return error.issues?.find((issue) => issue.path === ACCESS_CODE_FIELD)?.message;
}

/** The exam's shared access code (docs/product.md#access), asked for when the exam's access is `code`. */
export function AccessCodeField(props: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const { t } = useTranslation('credentials');
  return (
    <Field label={t('accessCode')} hint={t('accessCodeHint')} error={props.error}>
      <Input
        name="accessCode"
        autoComplete="off"
        spellCheck={false}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        disabled={props.disabled}
      />
    </Field>
  );
}

/** What a roster-only exam tells a candidate before they type anything. */
export function RosterNotice({ invited }: { invited: boolean }) {
  const { t } = useTranslation('credentials');
  return (
    <p role="note" className="rounded-md bg-brand-50 p-3 text-sm text-ink" data-testid="roster-notice">
      {invited ? t('invited') : t('rosterOnly')}
    </p>
  );
}
