import { describe, expect, it } from 'vitest';
import { sideBySide } from './side-by-side.ts';

describe('sideBySide', () => {
  it('faces shared lines, pairs replaced lines as changed and leaves extra lines on their side', () => {
    const rows = sideBySide('a = 1\nb = 2\nprint(a)\n', 'a = 1\nc = 3\nd = 4\nprint(a)\n');
    expect(rows.map((r) => [r.kind, r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ['same', 'a = 1', 'a = 1'],
      ['changed', 'b = 2', 'c = 3'],
      ['right-only', null, 'd = 4'],
      ['same', 'print(a)', 'print(a)'],
    ]);
    expect(rows.map((r) => [r.left?.number ?? null, r.right?.number ?? null])).toEqual([
      [1, 1],
      [2, 2],
      [null, 3],
      [3, 4],
    ]);
  });

  it('marks lines only the left side has', () => {
    expect(sideBySide('x\ny\n', 'x\n').map((r) => r.kind)).toEqual(['same', 'left-only']);
  });

  it('reads the same code with Windows line ends as the same', () => {
    expect(sideBySide('x\r\ny', 'x\ny').every((r) => r.kind === 'same')).toBe(true);
  });
});
