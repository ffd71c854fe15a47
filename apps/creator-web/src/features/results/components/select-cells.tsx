import { TableCell, TableHeaderCell } from '@exam/ui/table';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Selection } from '../hooks/use-selection.ts';

const box = 'h-4 w-4 cursor-pointer accent-brand-600';

/** The header's checkbox: every row shown, or none; mixed while only some are chosen. */
export function SelectAllCell({ selection }: { selection: Selection }) {
  const { t } = useTranslation('results');
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selection.someSelected;
  }, [selection.someSelected]);
  return (
    <TableHeaderCell className="w-10">
      <input
        ref={ref}
        type="checkbox"
        className={box}
        aria-label={t('bulkActions.selectAll')}
        checked={selection.allSelected}
        onChange={(e) => selection.setAll(e.target.checked)}
      />
    </TableHeaderCell>
  );
}

/** A row's checkbox, named after its candidate. */
export function SelectRowCell({ selection, id, name }: { selection: Selection; id: string; name: string }) {
  const { t } = useTranslation('results');
  return (
    <TableCell className="w-10">
      <input
        type="checkbox"
        className={box}
        aria-label={t('bulkActions.selectName', { name })}
        checked={selection.isSelected(id)}
        onChange={(e) => selection.toggle(id, e.target.checked)}
      />
    </TableCell>
  );
}
