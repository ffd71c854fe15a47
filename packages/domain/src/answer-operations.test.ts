import { describe, expect, it } from 'vitest';
import {
  diffOperation,
  fromCompact,
  reconcile,
  replay,
  replayWithSources,
  sharesOf,
  toCompact,
  type AnswerOperation,
} from './answer-operations.ts';

const at = '2026-11-28T10:00:00.000Z';
const op = (
  from: number,
  to: number,
  insert: string,
  source: AnswerOperation['source'] = 'typed',
): AnswerOperation => ({
  at,
  from,
  to,
  insert,
  source,
});

describe('answer operations', () => {
  it('replays inserts, deletions and replacements from empty', () => {
    expect(replay([op(0, 0, 'helo'), op(3, 3, 'l'), op(0, 1, 'H'), op(5, 5, ' world'), op(5, 11, '')])).toBe('Hello');
  });

  it('refuses an operation outside the text', () => {
    expect(() => replay([op(0, 0, 'ab'), op(1, 3, 'x')])).toThrow(/outside/);
  });

  it('keeps each character’s source through later edits', () => {
    const { text, runs } = replayWithSources([
      op(0, 0, 'abc'),
      op(3, 3, 'PASTE', 'pasted'),
      op(1, 1, 'AI', 'assistant'),
      op(0, 1, ''),
    ]);
    expect(text).toBe('AIbcPASTE');
    expect(runs).toEqual([
      [2, 'assistant'],
      [2, 'typed'],
      [5, 'pasted'],
    ]);
    expect(sharesOf(runs)).toEqual({ typed: 2, pasted: 5, assistant: 2, autocomplete: 0, restored: 0 });
  });

  it('diffs to the smallest replacement without splitting an emoji', () => {
    expect(diffOperation('abc', 'abc')).toBeNull();
    expect(diffOperation('hello world', 'hello brave world')).toEqual({ from: 6, to: 6, insert: 'brave ' });
    // 😀 and 😃 share their high surrogate: the replacement still takes the whole pair.
    const change = diffOperation('a😀b', 'a😃b')!;
    expect(change).toEqual({ from: 1, to: 3, insert: '😃' });
    expect(replay([change], 'a😀b')).toBe('a😃b');
  });

  it('reconciles a log that stopped short with one restored operation', () => {
    const { operations, reconciled } = reconcile([op(0, 0, 'draft')], 'draft two', at);
    expect(reconciled).toBe(true);
    expect(operations.at(-1)).toEqual({ at, from: 5, to: 5, insert: ' two', source: 'restored' });
    expect(replay(operations)).toBe('draft two');
    expect(reconcile([op(0, 0, 'same')], 'same', at).reconciled).toBe(false);
  });

  it('round-trips the compact form with per-key timing', () => {
    const started = Date.parse('2026-11-28T09:59:00.000Z');
    const typed: AnswerOperation = { ...op(2, 2, 'xyz'), keys: [120, 95] };
    expect(toCompact(typed, started)).toEqual([60_000, 2, 2, 'xyz', 0, [120, 95]]);
    expect(fromCompact(toCompact(typed, started), started)).toEqual(typed);
  });
});
