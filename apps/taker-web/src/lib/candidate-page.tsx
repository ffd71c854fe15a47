import { cn } from '@exam/ui/lib/cn';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from './language-switcher.tsx';

/** The frame of the candidate's pages around the exam (start, details, briefing, results): the language choice on top. */
export function CandidatePage({ children, align = 'center' }: { children: ReactNode; align?: 'center' | 'start' }) {
  return (
    <div className="flex min-h-full flex-col bg-gradient-to-b from-brand-50 to-canvas">
      <header className="flex justify-end px-4 pt-4">
        <LanguageSwitcher />
      </header>
      <main
        className={cn('flex flex-1 justify-center px-4 py-12', align === 'center' ? 'items-center' : 'items-start')}
      >
        {children}
      </main>
    </div>
  );
}
