import { Spinner } from '@exam/ui/spinner';
import { cn } from '@exam/ui/lib/cn';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import {
  columnName,
  GRID_MAX_COLUMNS,
  GRID_MAX_ROWS,
  readWorkbook,
  type WorkbookCell,
  type WorkbookSheet,
} from '../lib/read-workbook.ts';

function SheetGrid({
  sheet,
  onSelect,
  selected,
}: {
  sheet: WorkbookSheet;
  selected: string | null;
  onSelect: (cell: WorkbookCell) => void;
}) {
  const { t } = useTranslation('grading');
  const rows = Math.min(sheet.rows, GRID_MAX_ROWS);
  const columns = Math.min(sheet.columns, GRID_MAX_COLUMNS);
  const letters = Array.from({ length: columns }, (_, i) => columnName(i + 1));
  if (rows === 0) return <p className="text-sm text-muted">{t('workbook.emptySheet')}</p>;
  return (
    <>
      {(sheet.rows > rows || sheet.columns > columns) && (
        <p role="note" className="text-xs text-muted">
          {t('workbook.cut', { rows, columns })}
        </p>
      )}
      <div className="max-h-[60vh] overflow-auto rounded-md border border-line">
        <table
          aria-label={t('workbook.sheetLabel', { name: sheet.name })}
          className="border-collapse font-mono text-xs"
        >
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              <td className="border border-line px-2" />
              {letters.map((letter) => (
                <th key={letter} scope="col" className="border border-line px-2 font-sans font-medium text-muted">
                  {letter}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: rows }, (_, r) => (
              <tr key={r}>
                <th
                  scope="row"
                  className="border border-line bg-slate-50 px-2 text-right font-sans font-medium text-muted"
                >
                  {r + 1}
                </th>
                {letters.map((letter) => {
                  const cell = sheet.cells.get(`${letter}${r + 1}`);
                  return (
                    <td key={letter} className="min-w-16 border border-line p-0">
                      {cell && (
                        <button
                          type="button"
                          aria-pressed={selected === cell.address}
                          aria-label={t('workbook.cellLabel', { address: cell.address, value: cell.value })}
                          onClick={() => onSelect(cell)}
                          className={cn(
                            'block w-full px-2 py-0.5 text-left hover:bg-canvas',
                            cell.formula && 'text-brand-700',
                            selected === cell.address && 'outline outline-2 outline-brand-500',
                          )}
                        >
                          {cell.value}
                        </button>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A collected workbook as a read-only grid: its sheets as tabs, each cell's value, a selected cell's formula. */
export function WorkbookViewer({ fileName, bytes }: { fileName: string; bytes: Uint8Array }) {
  const { t } = useTranslation('grading');
  const workbook = useQuery({
    queryKey: ['workbook', fileName, bytes.byteLength],
    queryFn: () => readWorkbook(bytes),
    staleTime: Infinity,
    retry: false,
  });
  const [sheetIndex, setSheetIndex] = useState(0);
  const [selected, setSelected] = useState<WorkbookCell | null>(null);
  if (workbook.isPending) return <Spinner label={t('workbook.reading')} />;
  if (workbook.isError)
    return (
      <p role="alert" className="text-sm text-danger">
        {t('workbook.unreadable', { message: userMessageOf(workbook.error) })}
      </p>
    );
  const sheets = workbook.data;
  const sheet = sheets[Math.min(sheetIndex, sheets.length - 1)];
  if (!sheet) return <p className="text-sm text-muted">{t('workbook.noSheets')}</p>;
  return (
    <div className="flex flex-col gap-2">
      <div role="group" aria-label={t('workbook.sheets')} className="flex flex-wrap gap-1">
        {sheets.map((s, i) => (
          <button
            key={s.name}
            type="button"
            aria-pressed={s === sheet}
            onClick={() => {
              setSheetIndex(i);
              setSelected(null);
            }}
            className={cn(
              'rounded-t-md border border-line px-3 py-1 text-sm',
              s === sheet ? 'bg-surface font-medium text-ink' : 'bg-canvas text-muted',
            )}
          >
            {s.name}
          </button>
        ))}
      </div>
      <p
        aria-live="polite"
        data-testid="workbook-formula-bar"
        className="min-h-6 rounded-md bg-canvas px-2 py-1 font-mono text-sm"
      >
        {selected
          ? selected.formula
            ? t('workbook.selectedFormula', {
                address: selected.address,
                formula: selected.formula,
                value: selected.value,
              })
            : t('workbook.selectedValue', { address: selected.address, value: selected.value })
          : t('workbook.selectHint')}
      </p>
      <SheetGrid sheet={sheet} selected={selected?.address ?? null} onSelect={setSelected} />
    </div>
  );
}
