import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { CredentialsForm } from '../../../features/credentials/components/credentials-form.tsx';
import { readCredentialsState } from '../../../lib/navigation-state.ts';

export function CredentialsRoute() {
  const exam = readCredentialsState(useLocation().state);
  // Without an exam id in the navigation state (a bookmark, a reload) the candidate goes back to URL entry.
  if (!exam) return <Navigate to={paths.start} replace />;
  return (
    <main className="flex min-h-full items-center justify-center bg-gradient-to-b from-brand-50 to-canvas px-4 py-12">
      <CredentialsForm exam={exam} />
    </main>
  );
}
