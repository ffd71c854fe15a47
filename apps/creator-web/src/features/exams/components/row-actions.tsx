import { Button } from '@exam/ui/button';
import { DropdownMenu } from '@exam/ui/dropdown-menu';
import { cn } from '@exam/ui/lib/cn';
import { MoreHorizontal } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/*
 * A row's actions: the two or three a creator uses most as labelled buttons, the rest in a "More actions" menu.
 * Every control shows its name as text (an icon alone is a guess); `describedBy` names the row (its title cell),
 * so a screen reader hears "Edit, Midterm" while the accessible name stays the plain verb.
 */

const rowButton = 'h-8 gap-1.5 px-2.5 [&_svg]:h-4 [&_svg]:w-4 [&_svg]:shrink-0';

type Common = { icon: ReactNode; children: ReactNode; describedBy?: string };

export function RowActionLink({ to, icon, children, describedBy }: Common & { to: string }) {
  return (
    <Button asChild variant="secondary" size="sm" className={rowButton}>
      <Link to={to} aria-describedby={describedBy}>
        {icon}
        {children}
      </Link>
    </Button>
  );
}

export function RowActionButton({ onClick, icon, children, describedBy }: Common & { onClick: () => void }) {
  return (
    <Button variant="secondary" size="sm" className={rowButton} aria-describedby={describedBy} onClick={onClick}>
      {icon}
      {children}
    </Button>
  );
}

/**
 * The row's other actions. The UI kit's menu (Radix) gives the trigger aria-haspopup and aria-expanded, moves
 * through the items with the arrow keys, closes on Escape and puts focus back on this button.
 */
export function MoreActionsMenu({
  label,
  describedBy,
  children,
}: {
  label: string;
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <DropdownMenu
      trigger={
        <Button variant="ghost" size="sm" className={rowButton} aria-describedby={describedBy}>
          <MoreHorizontal aria-hidden />
          {label}
        </Button>
      }
    >
      {children}
    </DropdownMenu>
  );
}

/** How many buttons share a line: below the xl breakpoint (a 1024 px laptop) and from it (1366 px). */
const perLine = {
  '1-2': 'grid-cols-[max-content] xl:grid-cols-[repeat(2,max-content)]',
  '2-3': 'grid-cols-[repeat(2,max-content)] xl:grid-cols-[repeat(3,max-content)]',
} as const;

/**
 * The actions' cell content: a tidy block of buttons, as many to a line as the table's other columns leave room
 * for at 1024 and 1366 px in either language (the exam tables' journey measures it); on a phone, where the row
 * is a card, they wrap from the left.
 */
export function RowActions({ children, columns }: { children: ReactNode; columns: keyof typeof perLine }) {
  return (
    <div className={cn('grid justify-end gap-1.5 max-sm:flex max-sm:flex-wrap', perLine[columns])}>{children}</div>
  );
}
