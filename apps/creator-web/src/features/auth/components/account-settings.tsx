import { MIN_PASSWORD_LENGTH, PasswordChangeSchema, type PasswordChange } from '@exam/domain/auth';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useChangePassword, useSignOutEverywhere } from '../api/manage-account.ts';
import { FormAlert } from './form-alert.tsx';
import { placeServerIssues } from './server-issues.ts';
import { useTranslation } from 'react-i18next';

/** Changing the password needs the current one; the creator's other devices are signed out. */
export function ChangePasswordForm() {
  const { t } = useTranslation('auth');
  const change = useChangePassword();
  const [issuesPlaced, setIssuesPlaced] = useState(false);
  const form = useForm<PasswordChange>({
    resolver: zodResolver(PasswordChangeSchema),
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((body) =>
    change.mutate(body, {
      onError: (error) => setIssuesPlaced(placeServerIssues(error, ['currentPassword', 'newPassword'], form.setError)),
      onSuccess: () => form.reset(),
    }),
  );

  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-ink">{t('accountSettings.changePassword')}</h2>
      <form className="mt-4 flex max-w-md flex-col gap-4" onSubmit={submit} noValidate>
        {change.isError && !issuesPlaced && <FormAlert tone="error">{userMessageOf(change.error)}</FormAlert>}
        {change.isSuccess && <FormAlert tone="success">{change.data.message}</FormAlert>}
        <Field label={t('accountSettings.currentPassword')} error={errors.currentPassword?.message}>
          <Input
            type="password"
            autoComplete="current-password"
            disabled={change.isPending}
            {...form.register('currentPassword')}
          />
        </Field>
        <Field label={t('accountSettings.newPassword')} error={errors.newPassword?.message}>
          <Input
            type="password"
            autoComplete="new-password"
            placeholder={t('accountSettings.atLeastMinPassword', { min: MIN_PASSWORD_LENGTH })}
            disabled={change.isPending}
            {...form.register('newPassword')}
          />
        </Field>
        <Button type="submit" disabled={change.isPending} className="self-start">
          {change.isPending ? t('accountSettings.saving') : t('accountSettings.changePassword2')}
        </Button>
      </form>
    </Card>
  );
}

/** Ends every session of the creator, this one included; `onSignedOut` leaves the signed-in pages. */
export function SignOutEverywhere({ onSignedOut }: { onSignedOut: () => void }) {
  const { t } = useTranslation('auth');
  const signOutAll = useSignOutEverywhere();
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-ink">{t('accountSettings.devices')}</h2>
      <p className="mt-1 text-sm text-muted">{t('accountSettings.signsYouOutOn')}</p>
      {signOutAll.isError && (
        <div className="mt-4">
          <FormAlert tone="error">{userMessageOf(signOutAll.error)}</FormAlert>
        </div>
      )}
      <Button
        variant="secondary"
        className="mt-4"
        disabled={signOutAll.isPending}
        onClick={() => signOutAll.mutate(undefined, { onSuccess: onSignedOut })}
      >
        {t('accountSettings.signOutEverywhere')}
      </Button>
    </Card>
  );
}
