import { GraduationCap } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './lib/cn.ts';

/** The top bar and centred content column of the signed-in pages of both apps. */
export function AppShell({
  brand,
  actions,
  children,
  wide,
}: {
  brand?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className="min-h-full">
      <header className="sticky top-0 z-30 border-b border-line bg-surface/90 backdrop-blur">
        <div
          className={cn(
            'mx-auto flex h-14 items-center justify-between gap-4 px-6',
            wide ? 'max-w-[96rem]' : 'max-w-6xl',
          )}
        >
          {brand ?? (
            <span className="inline-flex items-center gap-2 font-semibold text-ink">
              <span className="flex h-7 w-7 items-center justify-center rounded-lg bg-brand-600 text-white">
                <GraduationCap aria-hidden className="h-4 w-4" />
              </span>
              Assessly
            </span>
          )}
          {actions && <div className="flex items-center gap-3">{actions}</div>}
        </div>
      </header>
      <main className={cn('mx-auto px-6 py-8', wide ? 'max-w-[96rem]' : 'max-w-6xl')}>{children}</main>
    </div>
  );
}
