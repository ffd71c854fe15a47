import { PasswordResetRequestSchema, type PasswordResetRequest } from '@exam/domain/auth';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useRequestPasswordReset } from '../api/manage-account.ts';
import { FormAlert } from './form-alert.tsx';
import { useTranslation } from 'react-i18next';

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const request = useRequestPasswordReset();
  const form = useForm<PasswordResetRequest>({
    resolver: zodResolver(PasswordResetRequestSchema),
    defaultValues: { email: '' },
  });
  const submit = form.handleSubmit((body) => request.mutate(body));

  return (
    <Card className="w-full max-w-md p-8">
      <h1 className="text-2xl font-semibold tracking-tight text-ink">{t('forgotPasswordForm.resetYourPassword')}</h1>
      <p className="mt-1 text-sm text-muted">{t('forgotPasswordForm.enterTheEmailAddress')}</p>
      <form className="mt-6 flex flex-col gap-4" onSubmit={submit} noValidate>
        {request.isError && <FormAlert tone="error">{userMessageOf(request.error)}</FormAlert>}
        {request.isSuccess && <FormAlert tone="success">{request.data.message}</FormAlert>}
        <Field label={t('forgotPasswordForm.emailAddress')} error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="email" disabled={request.isPending} {...form.register('email')} />
        </Field>
        <Button type="submit" size="lg" disabled={request.isPending} className="mt-2 w-full">
          {request.isPending ? t('forgotPasswordForm.sending') : t('forgotPasswordForm.sendResetLink')}
        </Button>
      </form>
      <div className="mt-6 text-center text-sm">
        <Link to={paths.auth} className="font-medium text-brand-600 hover:text-brand-700 hover:underline">
          {t('forgotPasswordForm.backToSignIn')}
        </Link>
      </div>
    </Card>
  );
}
