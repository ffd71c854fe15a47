import { PageHeader } from '@exam/ui/page-header';
import { toast } from '@exam/ui/toaster';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ChangePasswordForm, SignOutEverywhere } from '../../../features/auth/components/account-settings.tsx';
import { clearAllStorage } from '../../../lib/auth-storage.ts';
import { useTranslation } from 'react-i18next';

export function AccountRoute() {
  const { t } = useTranslation('dashboard');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signedOut = () => {
    clearAllStorage();
    queryClient.clear();
    void navigate(paths.auth, { replace: true });
    toast.success(t('account.signedOutOnEvery'));
  };
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('account.account')} />
      <ChangePasswordForm />
      <SignOutEverywhere onSignedOut={signedOut} />
    </div>
  );
}
