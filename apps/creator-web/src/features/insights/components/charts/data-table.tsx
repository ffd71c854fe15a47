import { TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import type { ReactNode } from 'react';

/**
 * A chart's data as a plain table: its accessible alternative. Not @exam/ui's Table, whose own scrolling frame
 * would be a scrollable region without focus while the table is visually hidden; ChartFrame scrolls it instead.
 */
export function DataTable({ label, headers, rows }: { label: string; headers: string[]; rows: ReactNode[][] }) {
  return (
    <table aria-label={label} className="w-full border-collapse text-left text-sm">
      <TableHead>
        <tr>
          {headers.map((header) => (
            <TableHeaderCell key={header}>{header}</TableHeaderCell>
          ))}
        </tr>
      </TableHead>
      <TableBody>
        {rows.map((row, r) => (
          <TableRow key={r}>
            {row.map((cell, c) => (
              <TableCell key={c} className="tabular-nums">
                {cell}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </table>
  );
}
