import { cn } from '@exam/ui/lib/cn';
import { useMemo } from 'react';
import { RowKind, sideBySide, type SideBySideRow } from '../lib/side-by-side.ts';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';

/** What each row's marker says, in words: the colour only repeats it. */
const MARKERS: Record<RowKind, { symbol: string; label: ParseKeys<'insights'> }> = {
  [RowKind.same]: { symbol: '', label: 'codeDiff.marker.same' },
  [RowKind.changed]: { symbol: '≠', label: 'codeDiff.marker.changed' },
  [RowKind.leftOnly]: { symbol: '−', label: 'codeDiff.marker.leftOnly' },
  [RowKind.rightOnly]: { symbol: '+', label: 'codeDiff.marker.rightOnly' },
};

function Side({ line, kind }: { line: SideBySideRow['left']; kind: RowKind }) {
  return (
    <>
      <td className="w-10 select-none border-r border-line px-2 text-right align-top text-muted tabular-nums">
        {line?.number ?? ''}
      </td>
      <td
        className={cn(
          'whitespace-pre-wrap break-all px-2 align-top',
          line && kind !== RowKind.same && 'bg-yellow-50',
          !line && 'bg-slate-50',
        )}
      >
        {line?.text ?? ''}
      </td>
    </>
  );
}

/** Two codes side by side, line by line (jsdiff), each changed line marked with a symbol and its meaning. */
export function CodeDiff({
  leftLabel,
  left,
  rightLabel,
  right,
}: {
  leftLabel: string;
  left: string;
  rightLabel: string;
  right: string;
}) {
  const { t } = useTranslation('insights');
  const rows = useMemo(() => sideBySide(left, right), [left, right]);
  const changed = rows.filter((r) => r.kind !== RowKind.same).length;
  return (
    <div className="overflow-x-auto rounded-lg border border-line">
      <table className="w-full border-collapse font-mono text-xs">
        <caption className="px-3 py-2 text-left font-sans text-sm text-muted">
          {t('codeDiff.leftlabelLeftAndRightlabel', { leftLabel, rightLabel })}{' '}
          {changed === 0 ? t('codeDiff.noLineDiffers') : t('codeDiff.changedLinesDiffer', { changed })}
        </caption>
        <thead className="bg-slate-50 font-sans text-left">
          <tr>
            <th scope="col" className="px-2 py-1">
              <span className="sr-only">{t('codeDiff.lineOfLeftlabel', { leftLabel })}</span>
            </th>
            <th scope="col" className="px-2 py-1">
              {leftLabel}
            </th>
            <th scope="col" className="px-2 py-1">
              <span className="sr-only">{t('codeDiff.difference')}</span>
            </th>
            <th scope="col" className="px-2 py-1">
              <span className="sr-only">{t('codeDiff.lineOfRightlabel', { rightLabel })}</span>
            </th>
            <th scope="col" className="px-2 py-1">
              {rightLabel}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const marker = MARKERS[row.kind];
            return (
              <tr key={i} data-kind={row.kind} className="border-t border-line/60">
                <Side line={row.left} kind={row.kind} />
                <td className="w-6 text-center align-top font-bold" title={t(marker.label)}>
                  <span aria-hidden>{marker.symbol}</span>
                  {row.kind !== RowKind.same && <span className="sr-only">{t(marker.label)}</span>}
                </td>
                <Side line={row.right} kind={row.kind} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
