import { diffLines } from 'diff';

export const RowKind = { same: 'same', changed: 'changed', leftOnly: 'left-only', rightOnly: 'right-only' } as const;
export type RowKind = (typeof RowKind)[keyof typeof RowKind];

/** One row of a two-column diff: a line of each side (null where that side has none) and their line numbers. */
export type SideBySideRow = {
  kind: RowKind;
  left: { number: number; text: string } | null;
  right: { number: number; text: string } | null;
};

const linesOf = (value: string) => value.replace(/\n$/, '').split('\n');

/**
 * Lines the two codes share face each other; a block of removed lines followed by a block of added ones is
 * paired row by row as changed, the longer block's rest left on its side alone (jsdiff's line diff, Myers'
 * algorithm).
 */
export function sideBySide(left: string, right: string): SideBySideRow[] {
  const changes = diffLines(left.replace(/\r\n/g, '\n'), right.replace(/\r\n/g, '\n'));
  const rows: SideBySideRow[] = [];
  let l = 0;
  let r = 0;
  const leftLine = (text: string) => ({ number: ++l, text });
  const rightLine = (text: string) => ({ number: ++r, text });
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    if (!change.added && !change.removed) {
      for (const text of linesOf(change.value))
        rows.push({ kind: RowKind.same, left: leftLine(text), right: rightLine(text) });
      continue;
    }
    const next = changes[i + 1];
    const removed = change.removed ? linesOf(change.value) : [];
    const added = change.added ? linesOf(change.value) : change.removed && next?.added ? linesOf(next.value) : [];
    if (change.removed && next?.added) i++;
    for (let j = 0; j < Math.max(removed.length, added.length); j++) {
      const a = removed[j];
      const b = added[j];
      rows.push({
        kind:
          a !== undefined && b !== undefined ? RowKind.changed : a !== undefined ? RowKind.leftOnly : RowKind.rightOnly,
        left: a === undefined ? null : leftLine(a),
        right: b === undefined ? null : rightLine(b),
      });
    }
  }
  return rows;
}
