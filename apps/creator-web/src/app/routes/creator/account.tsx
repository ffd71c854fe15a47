import { PageHeader } from '@exam/ui/page-header';
import { toast } from '@exam/ui/toaster';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ChangePasswordForm, SignOutEverywhere } from '../../../features/auth/components/account-settings.tsx';
import { clearAllStorage } from '../../../lib/auth-storage.ts';

export function AccountRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signedOut = () => {
    clearAllStorage();
    queryClient.clear();
    void navigate(paths.auth, { replace: true });
    toast.success('Signed out on every device');
  };
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Account" />
      <ChangePasswordForm />
      <SignOutEverywhere onSignedOut={signedOut} />
    </div>
  );
}
