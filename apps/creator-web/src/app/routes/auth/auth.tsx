import { ArrowLeft } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { AuthForm } from '../../../features/auth/components/auth-form.tsx';
import { main } from './auth-layout.ts';

export function AuthRoute() {
  const navigate = useNavigate();
  return (
    <main className={main}>
      <AuthForm onAuthenticated={() => void navigate(paths.dashboard)} />
      <Link to={paths.home} className="inline-flex items-center gap-1.5 text-sm font-medium text-muted hover:text-ink">
        <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Home
      </Link>
    </main>
  );
}
