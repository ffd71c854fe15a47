import { MIN_PASSWORD_LENGTH, NewPasswordSchema } from '@exam/domain/auth';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useConfirmPasswordReset } from '../api/manage-account.ts';
import { FormAlert } from './form-alert.tsx';
import { placeServerIssues } from './server-issues.ts';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';

const ResetFormSchema = z
  .object({ password: NewPasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, {
    path: ['confirm'],
    error: () => i18n.t('auth:resetPasswordForm.passwordsDoNotMatch'),
  });
type ResetForm = z.infer<typeof ResetFormSchema>;

/** Sets a new password from the mailed link's token; afterwards every session of the account has ended. */
export function ResetPasswordForm({ token }: { token: string | undefined }) {
  const { t } = useTranslation('auth');
  const confirm = useConfirmPasswordReset();
  const [issuesPlaced, setIssuesPlaced] = useState(false);
  const form = useForm<ResetForm>({
    resolver: zodResolver(ResetFormSchema),
    defaultValues: { password: '', confirm: '' },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(({ password }) =>
    confirm.mutate(
      { token: token ?? '', password },
      { onError: (error) => setIssuesPlaced(placeServerIssues(error, ['password'], form.setError)) },
    ),
  );

  return (
    <Card className="w-full max-w-md p-8">
      <h1 className="text-2xl font-semibold tracking-tight text-ink">{t('resetPasswordForm.chooseANewPassword')}</h1>
      {!token ? (
        <div className="mt-6">
          <FormAlert tone="error">{t('resetPasswordForm.thisResetLinkIs')}</FormAlert>
        </div>
      ) : confirm.isSuccess ? (
        <div className="mt-6 flex flex-col gap-4">
          <FormAlert tone="success">{confirm.data.message}</FormAlert>
          <Link to={paths.auth} className="font-medium text-brand-600 hover:text-brand-700 hover:underline">
            {t('resetPasswordForm.goToSignIn')}
          </Link>
        </div>
      ) : (
        <form className="mt-6 flex flex-col gap-4" onSubmit={submit} noValidate>
          {confirm.isError && !issuesPlaced && <FormAlert tone="error">{userMessageOf(confirm.error)}</FormAlert>}
          <Field label={t('resetPasswordForm.newPassword')} error={errors.password?.message}>
            <Input
              type="password"
              autoComplete="new-password"
              placeholder={t('resetPasswordForm.atLeastMinPassword', { min: MIN_PASSWORD_LENGTH })}
              disabled={confirm.isPending}
              {...form.register('password')}
            />
          </Field>
          <Field label={t('resetPasswordForm.repeatNewPassword')} error={errors.confirm?.message}>
            <Input
              type="password"
              autoComplete="new-password"
              disabled={confirm.isPending}
              {...form.register('confirm')}
            />
          </Field>
          <Button type="submit" size="lg" disabled={confirm.isPending} className="mt-2 w-full">
            {confirm.isPending ? t('resetPasswordForm.saving') : t('resetPasswordForm.setNewPassword')}
          </Button>
        </form>
      )}
      {!confirm.isSuccess && (
        <div className="mt-6 text-center text-sm">
          <Link to={paths.forgotPassword} className="font-medium text-muted hover:text-ink hover:underline">
            {t('resetPasswordForm.askForANew')}
          </Link>
        </div>
      )}
    </Card>
  );
}
