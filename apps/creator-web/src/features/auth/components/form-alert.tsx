import { AlertCircle, CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';

/** The message above an account form: an error (role=alert) or a confirmation (role=status). */
export function FormAlert({ tone, children }: { tone: 'error' | 'success'; children: ReactNode }) {
  if (tone === 'error') {
    return (
      <div
        role="alert"
        className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
      >
        <AlertCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        {children}
      </div>
    );
  }
  return (
    <div
      role="status"
      className="flex items-start gap-2 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800"
    >
      <CheckCircle2 aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      {children}
    </div>
  );
}
