import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from './lib/cn.ts';

/*
 * Below the sm breakpoint a `stacked` table shows each row as a card: the header row is hidden and every cell
 * with a `data-label` (its column's name) shows that name before its value. The elements stay a table.
 */
const stackedOnPhone = [
  'max-sm:block max-sm:[&_tbody]:block max-sm:[&_thead]:hidden',
  'max-sm:[&_tr]:block max-sm:[&_tr]:py-2',
  'max-sm:[&_td]:flex max-sm:[&_td]:items-center max-sm:[&_td]:justify-between max-sm:[&_td]:gap-3',
  'max-sm:[&_td]:px-5 max-sm:[&_td]:py-1.5',
  'max-sm:[&_td[data-label]]:before:text-xs max-sm:[&_td[data-label]]:before:font-semibold',
  'max-sm:[&_td[data-label]]:before:text-muted max-sm:[&_td[data-label]]:before:content-[attr(data-label)]',
].join(' ');

/** A semantic table in a horizontally scrolling frame (tablets keep every column reachable). */
export function Table({ className, stacked, ...props }: HTMLAttributes<HTMLTableElement> & { stacked?: boolean }) {
  return (
    <div className="w-full overflow-x-auto">
      <table
        className={cn('w-full border-collapse text-left text-sm', stacked && stackedOnPhone, className)}
        {...props}
      />
    </div>
  );
}

export function TableHead({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn('border-b border-line bg-canvas/60', className)} {...props} />;
}

export function TableBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn('divide-y divide-line', className)} {...props} />;
}

export function TableRow({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('transition-colors hover:bg-canvas/50', className)} {...props} />;
}

export function TableHeaderCell({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn('whitespace-nowrap px-2.5 py-3 text-xs font-semibold text-muted first:pl-5 last:pr-5', className)}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('px-2.5 py-3 align-middle text-ink first:pl-5 last:pr-5', className)} {...props} />;
}
