import { Button } from '@exam/ui/button';
import { Plus, X } from 'lucide-react';
import type { ReactNode } from 'react';

/** The controls every list editor of a question's parts shares (items, pairs, units, variables, gaps). */

/** Removes one row; `label` names the row for a screen reader ("Remove item 2 of question 3"). */
export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button variant="ghost" size="icon" aria-label={label} onClick={onClick}>
      <X aria-hidden className="h-4 w-4" />
    </Button>
  );
}

/** Adds a row at the end of the list. */
export function AddButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button variant="ghost" size="sm" aria-label={label} disabled={disabled} onClick={onClick}>
      <Plus aria-hidden className="h-4 w-4" /> {children}
    </Button>
  );
}

/** The schema's message about a whole list or field, announced when it appears; nothing without one. */
export function FieldAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-xs text-danger">
      {message}
    </p>
  );
}
