import { Progress as RadixProgress } from 'radix-ui';
import { cn } from './lib/cn.ts';

/** A labelled progress bar (role="progressbar"); value 0–100. */
export function Progress({
  value,
  label,
  className,
  barClassName,
}: {
  value: number;
  label: string;
  className?: string;
  barClassName?: string;
}) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <RadixProgress.Root
      value={clamped}
      aria-label={label}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <RadixProgress.Indicator
        className={cn('h-full bg-brand-600 transition-transform', barClassName)}
        style={{ transform: `translateX(-${100 - clamped}%)` }}
      />
    </RadixProgress.Root>
  );
}
