import { cn } from '@exam/ui/lib/cn';
import { useMemo } from 'react';
import { RowKind, sideBySide, type SideBySideRow } from '../side-by-side.ts';

/** What each row's marker says, in words: the colour only repeats it. */
const MARKERS: Record<RowKind, { symbol: string; label: string }> = {
  [RowKind.same]: { symbol: '', label: 'same' },
  [RowKind.changed]: { symbol: '≠', label: 'changed' },
  [RowKind.leftOnly]: { symbol: '−', label: 'only left' },
  [RowKind.rightOnly]: { symbol: '+', label: 'only right' },
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
  const rows = useMemo(() => sideBySide(left, right), [left, right]);
  const changed = rows.filter((r) => r.kind !== RowKind.same).length;
  return (
    <div className="overflow-x-auto rounded-lg border border-line">
      <table className="w-full border-collapse font-mono text-xs">
        <caption className="px-3 py-2 text-left font-sans text-sm text-muted">
          {leftLabel} (left) and {rightLabel} (right): {changed === 0 ? 'no line differs' : `${changed} lines differ`}
        </caption>
        <thead className="bg-slate-50 font-sans text-left">
          <tr>
            <th scope="col" className="px-2 py-1">
              <span className="sr-only">Line of {leftLabel}</span>
            </th>
            <th scope="col" className="px-2 py-1">
              {leftLabel}
            </th>
            <th scope="col" className="px-2 py-1">
              <span className="sr-only">Difference</span>
            </th>
            <th scope="col" className="px-2 py-1">
              <span className="sr-only">Line of {rightLabel}</span>
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
                <td className="w-6 text-center align-top font-bold" title={marker.label}>
                  <span aria-hidden>{marker.symbol}</span>
                  {row.kind !== RowKind.same && <span className="sr-only">{marker.label}</span>}
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
