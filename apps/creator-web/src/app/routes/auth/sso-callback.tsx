import { SsoFailure } from '@exam/domain/organizations';
import { Card } from '@exam/ui/card';
import { PageSpinner } from '@exam/ui/spinner';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { openSingleSignOnSession } from '../../../features/auth/api/single-sign-on.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { saveSession } from '../../../lib/auth-storage.ts';
import { main } from './auth-layout.ts';

const REASONS = Object.values(SsoFailure) as string[];

function Problem({ message }: { message: string }) {
  const { t } = useTranslation('auth');
  return (
    <main className={main}>
      <Card className="w-full max-w-md p-8">
        <h1 className="text-xl font-semibold text-ink">{t('sso.failedTitle')}</h1>
        <p role="alert" className="mt-2 text-sm text-danger">
          {message}
        </p>
        <Link to={paths.auth} className="mt-4 inline-block text-sm font-medium text-brand-600 hover:underline">
          {t('sso.backToSignIn')}
        </Link>
      </Card>
    </main>
  );
}

/**
 * Where a sign-in through the organization's provider lands (`/sso-callback#ticket=…`): the one-time ticket opens a
 * creator session, as an LTI launch's does. Read from the fragment, so it never reaches a server log.
 */
export function SsoCallbackRoute() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const fragment = new URLSearchParams(useLocation().hash.slice(1));
  const ticket = fragment.get('ticket');
  const failure = fragment.get('error');
  // A query, not an effect: the ticket is spent once even when React mounts the page twice.
  const session = useQuery({
    queryKey: ['sso-session', ticket],
    queryFn: () => openSingleSignOnSession(ticket ?? ''),
    enabled: Boolean(ticket),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  useEffect(() => {
    if (!session.data) return;
    saveSession(session.data);
    void navigate(paths.dashboard, { replace: true });
  }, [session.data, navigate]);

  if (failure) {
    const reason = REASONS.includes(failure) ? failure : SsoFailure.invalid;
    return <Problem message={t(`sso.failure.${reason as SsoFailure}`)} />;
  }
  if (!ticket) return <Problem message={t('sso.failure.expired')} />;
  if (session.isError) return <Problem message={userMessageOf(session.error)} />;
  return <PageSpinner label={t('sso.signingIn')} />;
}
