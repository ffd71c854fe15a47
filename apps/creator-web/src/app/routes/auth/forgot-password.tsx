import { main } from './auth-layout.ts';
import { ForgotPasswordForm } from '../../../features/auth/components/forgot-password-form.tsx';

export function ForgotPasswordRoute() {
  return (
    <main className={main}>
      <ForgotPasswordForm />
    </main>
  );
}
