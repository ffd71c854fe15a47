import { Button } from '@exam/ui/button';
import { Tooltip } from '@exam/ui/tooltip';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

const iconButton = 'h-8 w-8 text-muted hover:text-ink';

/** A row action shown as an icon: its name is the aria-label, the tooltip only repeats it for sighted users. */
export function IconAction({
  label,
  icon,
  onClick,
  to,
  tone,
}: {
  label: string;
  icon: ReactNode;
  onClick?: () => void;
  to?: string;
  tone?: 'danger';
}) {
  const className = tone === 'danger' ? `${iconButton} hover:bg-red-50 hover:text-danger` : iconButton;
  return (
    <Tooltip content={label}>
      {to ? (
        <Button asChild variant="ghost" size="icon" className={className}>
          <Link to={to} aria-label={label}>
            {icon}
          </Link>
        </Button>
      ) : (
        <Button variant="ghost" size="icon" className={className} aria-label={label} onClick={onClick}>
          {icon}
        </Button>
      )}
    </Tooltip>
  );
}
