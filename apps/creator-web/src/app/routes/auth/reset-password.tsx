import { useLocation } from 'react-router';
import { ResetPasswordForm } from '../../../features/auth/components/reset-password-form.tsx';
import { main } from './auth-layout.ts';

/** The mailed link: /reset-password#token=… (a fragment is never sent to a server, so no log keeps it). */
export function ResetPasswordRoute() {
  const { hash } = useLocation();
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? undefined;
  return (
    <main className={main}>
      <ResetPasswordForm token={token} />
    </main>
  );
}
