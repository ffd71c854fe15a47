import { Button } from '@exam/ui/button';
import { AppShell } from '@exam/ui/app-shell';
import { toast } from '@exam/ui/toaster';
import { useQueryClient } from '@tanstack/react-query';
import { Activity, Building2, GraduationCap, Library, LogOut, Plug, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link, Outlet, redirect, useLoaderData, useNavigate } from 'react-router';
import { LanguageSwitcher } from '../../../components/language-switcher.tsx';
import { paths } from '../../../config/paths.ts';
import { useIsPlatformAdmin } from '../../../features/admin/api/platform-status.ts';
import { signOut as endServerSession } from '../../../features/auth/api/manage-account.ts';
import { useMyOrganization } from '../../../features/organizations/api/manage-organization.ts';
import { ApiError } from '../../../lib/api-client.ts';
import {
  clearAllStorage,
  clearToken,
  emailOfToken,
  findStoredUser,
  getToken,
  isTokenUsable,
} from '../../../lib/auth-storage.ts';
import { useTranslation } from 'react-i18next';

/** The creator pages' guard: a missing, undecodable or expired token is removed and the creator signs in again. */
export function creatorGuard(): { email: string } {
  const token = getToken();
  if (!isTokenUsable(token)) {
    clearToken();
    throw redirect(paths.auth);
  }
  return { email: findStoredUser()?.email ?? emailOfToken(token) ?? '' };
}

export function CreatorLayout() {
  const { t } = useTranslation('dashboard');
  const { t: tAdmin } = useTranslation('admin');
  const { email } = useLoaderData<typeof creatorGuard>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const [signingOut, setSigningOut] = useState(false);
  // Only the platform's administrators (ADMIN_EMAILS) see the link to its status.
  const isAdmin = useIsPlatformAdmin();
  // Only the organization's admins manage it.
  const isOrganizationAdmin = useMyOrganization().data?.role === 'admin';

  // The server ends the session first, so the token stops working everywhere, not only in this browser.
  const signOut = async () => {
    setSigningOut(true);
    // A 401 means the session had already ended (signed out elsewhere): nothing is left to end.
    const ended = await endServerSession().then(
      () => true,
      (error: unknown) => error instanceof ApiError && error.status === 401,
    );
    clearAllStorage();
    queryClient.clear();
    void navigate(paths.home);
    if (ended) toast.success(t('creatorLayout.signedOutSuccessfully'));
    else toast.error(t('creatorLayout.signedOutInThis'));
  };

  return (
    <AppShell
      brand={
        <Link to={paths.dashboard} className="inline-flex items-center gap-2 rounded-md font-semibold text-ink">
          <span className="flex h-7 w-7 items-center justify-center rounded-lg bg-brand-600 text-white">
            <GraduationCap aria-hidden className="h-4 w-4" />
          </span>
          {t('creatorLayout.assessly')}
        </Link>
      }
      actions={
        <>
          <span className="hidden text-sm text-muted sm:inline">{t('creatorLayout.welcomeEmail', { email })}</span>
          <Link
            to={paths.questionBank}
            className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted hover:text-ink"
          >
            <Library aria-hidden className="h-4 w-4" /> {t('creatorLayout.questionBank')}
          </Link>
          <Link
            to={paths.ltiSettings}
            className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted hover:text-ink"
          >
            <Plug aria-hidden className="h-4 w-4" /> {t('creatorLayout.lms')}
          </Link>
          {isOrganizationAdmin && (
            <Link
              to={paths.organization}
              className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted hover:text-ink"
            >
              <Building2 aria-hidden className="h-4 w-4" /> {t('creatorLayout.organization')}
            </Link>
          )}
          {isAdmin && (
            <Link
              to={paths.adminStatus}
              className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted hover:text-ink"
            >
              <Activity aria-hidden className="h-4 w-4" /> {tAdmin('link')}
            </Link>
          )}
          <Link
            to={paths.account}
            className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted hover:text-ink"
          >
            <UserRound aria-hidden className="h-4 w-4" /> {t('creatorLayout.account')}
          </Link>
          <LanguageSwitcher />
          <Button variant="secondary" size="sm" disabled={signingOut} onClick={() => void signOut()}>
            <LogOut aria-hidden className="h-4 w-4" /> {t('creatorLayout.signOut')}
          </Button>
        </>
      }
    >
      <Outlet />
    </AppShell>
  );
}
