import { ArrowLeft } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { LanguageSwitcher } from '../../../components/language-switcher.tsx';
import { paths } from '../../../config/paths.ts';
import { AuthForm } from '../../../features/auth/components/auth-form.tsx';
import { main } from './auth-layout.ts';
import { useTranslation } from 'react-i18next';

export function AuthRoute() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  return (
    <main className={main}>
      <AuthForm onAuthenticated={() => void navigate(paths.dashboard)} />
      <Link to={paths.home} className="inline-flex items-center gap-1.5 text-sm font-medium text-muted hover:text-ink">
        <ArrowLeft aria-hidden className="h-4 w-4" /> {t('auth.backToHome')}
      </Link>
      <LanguageSwitcher />
    </main>
  );
}
