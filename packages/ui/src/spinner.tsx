import { Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from './lib/cn.ts';

export function Spinner({ label, className }: { label?: string | undefined; className?: string }) {
  const { t } = useTranslation('ui');
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-sm text-muted', className)}>
      <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
      <span>{label ?? t('loading')}</span>
    </span>
  );
}

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-slate-200', className)} />;
}

/** A whole-page loading state, centred. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}
