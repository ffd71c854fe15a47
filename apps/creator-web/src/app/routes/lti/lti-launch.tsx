import type { LtiLaunchNext } from '@exam/domain/lti';
import { Card } from '@exam/ui/card';
import { PageSpinner } from '@exam/ui/spinner';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { AuthForm } from '../../../features/auth/components/auth-form.tsx';
import { linkLmsAccount, openLaunchSession } from '../../../features/lti/api/manage-lti.ts';
import { ticketFromHash } from '../../../features/lti/lib/auto-post.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { saveSession } from '../../../lib/auth-storage.ts';
import { main } from '../auth/auth-layout.ts';

function Problem({ message }: { message: string }) {
  const { t } = useTranslation('lti');
  return (
    <Card className="w-full max-w-md p-8">
      <h1 className="text-xl font-semibold text-ink">{t('launch.failed')}</h1>
      <p role="alert" className="mt-2 text-sm text-danger">
        {message}
      </p>
      <p className="mt-4 text-sm text-muted">{t('launch.backToLms')}</p>
    </Card>
  );
}

/**
 * Where an instructor's LMS launch lands (`/lti-launch#ticket=…`, ARCHITECTURE.md "LTI"): a linked LMS account
 * is signed in and sent on to the exam or the deep-linking picker; an unlinked one signs in here first, which links
 * it. The ticket is read from the fragment, so it never reaches a server log.
 */
export function LtiLaunchRoute() {
  const { t } = useTranslation('lti');
  const navigate = useNavigate();
  const ticket = ticketFromHash(useLocation().hash);
  const [linkError, setLinkError] = useState<string>();
  const [linking, setLinking] = useState(false);
  // A query, not an effect: it runs once per ticket even when React mounts the page twice.
  const session = useQuery({
    queryKey: ['lti-launch', ticket],
    queryFn: () => openLaunchSession(ticket ?? ''),
    enabled: Boolean(ticket),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  const go = (next: LtiLaunchNext) =>
    void navigate(next.kind === 'exam' ? paths.examPublished(next.examId) : paths.ltiDeepLink(ticket ?? ''), {
      replace: true,
    });

  useEffect(() => {
    if (session.data?.status !== 'signed-in') return;
    saveSession({ token: session.data.token, user: session.data.user });
    go(session.data.next);
    // go only navigates; the session answer is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.data]);

  if (!ticket) return <main className={main}>{<Problem message={t('launch.noTicket')} />}</main>;
  if (session.isError) return <main className={main}>{<Problem message={userMessageOf(session.error)} />}</main>;
  if (linkError) return <main className={main}>{<Problem message={linkError} />}</main>;
  if (linking || !session.data || session.data.status === 'signed-in')
    return <PageSpinner label={t('launch.opening')} />;

  const platform = session.data.platformName;
  const link = () => {
    setLinking(true);
    linkLmsAccount(ticket)
      .then((answer) => go(answer.next))
      .catch((error: unknown) => setLinkError(userMessageOf(error)));
  };
  return (
    <main className={main}>
      <Card className="w-full max-w-md p-6">
        <h1 className="text-xl font-semibold text-ink">{t('launch.linkTitle')}</h1>
        <p className="mt-2 text-sm text-muted">{t('launch.linkIntro', { platform })}</p>
      </Card>
      <AuthForm onAuthenticated={link} />
    </main>
  );
}
