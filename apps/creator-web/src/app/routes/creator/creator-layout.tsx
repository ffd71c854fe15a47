import { Button } from '@exam/ui/button';
import { AppShell } from '@exam/ui/app-shell';
import { toast } from '@exam/ui/toaster';
import { useQueryClient } from '@tanstack/react-query';
import { GraduationCap, LogOut } from 'lucide-react';
import { Link, Outlet, redirect, useLoaderData, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import {
  clearAllStorage,
  clearToken,
  emailOfToken,
  findStoredUser,
  getToken,
  isTokenUsable,
} from '../../../lib/auth-storage.ts';

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
  const { email } = useLoaderData<typeof creatorGuard>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const signOut = () => {
    clearAllStorage();
    queryClient.clear();
    void navigate(paths.home);
    toast.success('Signed out successfully');
  };

  return (
    <AppShell
      brand={
        <Link to={paths.dashboard} className="inline-flex items-center gap-2 rounded-md font-semibold text-ink">
          <span className="flex h-7 w-7 items-center justify-center rounded-lg bg-brand-600 text-white">
            <GraduationCap aria-hidden className="h-4 w-4" />
          </span>
          Assessly
        </Link>
      }
      actions={
        <>
          <span className="hidden text-sm text-muted sm:inline">Welcome, {email}</span>
          <Button variant="secondary" size="sm" onClick={signOut}>
            <LogOut aria-hidden className="h-4 w-4" /> Sign Out
          </Button>
        </>
      }
    >
      <Outlet />
    </AppShell>
  );
}
