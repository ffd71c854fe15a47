import { describe, expect, it } from 'vitest';
import {
  appendChunk,
  coalesce,
  CompactOperationSchema,
  KEY_INTERVAL_MAX_MS,
  OPERATION_KEYS_MAX,
  diffOperation,
  fromCompact,
  reconcile,
  replay,
  replayWithSources,
  sharesOf,
  toCompact,
  type AnswerOperation,
  type CompactOperation,
} from './answer-operations.ts';
import { decodeKeys, encodeKeys } from './key-intervals.ts';

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
    // 120 ms = 1·64 + 56 → "1u", 95 ms = 1·64 + 31 → "1V".
    // An insertion leaves out `to`.
    expect(toCompact(typed, started)).toEqual([60_000, 2, 'xyz', 0, '1u1V']);
    const backspaces: AnswerOperation = { ...op(1, 3, ''), keys: [100] };
    expect(toCompact(backspaces, started)).toEqual([60_000, 1, 3, '', 0, '1a']);
    expect(fromCompact(toCompact(backspaces, started), started)).toEqual(backspaces);
    expect(toCompact(op(0, 0, 'pasted', 'pasted'), started)).toEqual([60_000, 0, 'pasted', 1]);
    expect(fromCompact(toCompact(typed, started), started)).toEqual(typed);
  });

  it('still reads the first compact form, per-key timing as an array of numbers', () => {
    const started = Date.parse('2026-11-28T09:59:00.000Z');
    const legacy = CompactOperationSchema.parse([60_000, 2, 2, 'xyz', 0, [120, 95]]);
    expect(fromCompact(legacy, started)).toEqual({ ...op(2, 2, 'xyz'), keys: [120, 95] });
  });

  it('encodes key intervals in two digits under 4,096 ms and in six up to a day', () => {
    const keys = [0, 63, 64, 4_095, 4_096, KEY_INTERVAL_MAX_MS];
    const encoded = encodeKeys(keys);
    expect(encoded.slice(0, 8)).toBe('000_10__');
    expect(encoded.length).toBe(4 * 2 + 2 * 6);
    expect(decodeKeys(encoded)).toEqual(keys);
    expect(CompactOperationSchema.safeParse([0, 0, 0, 'abcdefg', 0, encoded]).success).toBe(true);
  });

  it('refuses key strings that do not decode or hold an interval over a day', () => {
    for (const bad of ['1', '~12', '1*', '~_____', 'a b']) {
      expect(CompactOperationSchema.safeParse([0, 0, 0, 'ab', 0, bad]).success, bad).toBe(false);
      expect(CompactOperationSchema.safeParse([0, 0, 'ab', 0, bad]).success, bad).toBe(false);
    }
    // The short insertion form has no array-of-numbers variant, and a position is never a string.
    expect(CompactOperationSchema.safeParse([0, 0, 'ab', 0, [100]]).success).toBe(false);
    expect(CompactOperationSchema.safeParse([0, '0', 'ab', 0]).success).toBe(false);
  });
});

describe('coalesce', () => {
  const key = (ms: number, from: number, to: number, insert: string): AnswerOperation => ({
    at: new Date(Date.parse(at) + ms).toISOString(),
    from,
    to,
    insert,
    source: 'typed',
  });

  it('folds a run of typed keys and keeps each key’s time', () => {
    let run = key(0, 0, 0, 'a');
    for (const [ms, pos, ch] of [
      [150, 1, 'b'],
      [420, 2, '😀'],
    ] as const) {
      run = coalesce(run, key(ms, pos, pos, ch))!;
    }
    expect(run).toMatchObject({ from: 0, to: 0, insert: 'ab😀', keys: [150, 270] });
    // Not at the end of the run: a new operation.
    expect(coalesce(run, key(500, 1, 1, 'x'))).toBeNull();
    // A paste never joins a typed run.
    expect(coalesce(run, { ...key(500, 4, 4, 'y'), source: 'pasted' })).toBeNull();
  });

  it('folds Backspace and Delete runs so replay is unchanged', () => {
    const text = 'hello world';
    const steps = [key(0, 5, 6, ''), key(100, 4, 5, ''), key(180, 4, 5, '')];
    let run: AnswerOperation = steps[0]!;
    for (const step of steps.slice(1)) run = coalesce(run, step)!;
    expect(run).toMatchObject({ from: 4, to: 7, keys: [100, 80] });
    expect(replay([run], text)).toBe(replay(steps, text));
  });
});

describe('appendChunk (the server’s storage rule)', () => {
  const ops = (...ts: number[]): CompactOperation[] => ts.map((t) => [t, 0, 0, 'x', 0]);

  it('stores a chunk that starts where the stored operations end', () => {
    expect(appendChunk({ end: 0 }, { start: 0, ops: ops(1, 2) })).toEqual({ start: 0, ops: ops(1, 2) });
  });

  it('stores nothing when a save comes again after its acknowledgement was lost', () => {
    expect(appendChunk({ end: 2 }, { start: 0, ops: ops(1, 2) })).toBeNull();
    expect(appendChunk({ end: 5 }, { start: 0, ops: ops(1, 2) })).toBeNull();
  });

  it('stores only the new tail of a longer chunk sent again from the same start', () => {
    expect(appendChunk({ end: 2 }, { start: 0, ops: ops(1, 2, 3, 4) })).toEqual({ start: 2, ops: ops(3, 4) });
    expect(appendChunk({ end: 3 }, { start: 2, ops: ops(3, 4) })).toEqual({ start: 3, ops: ops(4) });
  });

  it('refuses a chunk that starts past the stored end: the operations between are missing', () => {
    expect(appendChunk({ end: 2 }, { start: 3, ops: ops(4) })).toBeNull();
  });

  it('keeps the first copy of an operation: a page must not change an operation once it was sent', () => {
    // The page sent op 0 ('x'), then folded another key into it and sent it again: the server keeps 'x'.
    const changed: CompactOperation[] = [[1, 0, 0, 'xy', 0, [90]], ...ops(5)];
    expect(appendChunk({ end: 1 }, { start: 0, ops: changed })).toEqual({ start: 1, ops: ops(5) });
  });
});

describe('coalesce limits', () => {
  const key = (ms: number, pos: number): AnswerOperation => ({
    at: new Date(Date.parse(at) + ms).toISOString(),
    from: pos,
    to: pos,
    insert: 'a',
    source: 'typed',
  });

  it('starts a new operation after an interval the compact form cannot hold', () => {
    // Regression: a key a day and a second later was folded in, and the save carrying it failed validation.
    const first = key(0, 0);
    expect(coalesce(first, key(KEY_INTERVAL_MAX_MS + 1000, 1))).toBeNull();
    const folded = coalesce(first, key(KEY_INTERVAL_MAX_MS, 1))!;
    expect(CompactOperationSchema.safeParse(toCompact(folded, Date.parse(at))).success).toBe(true);
  });

  it('starts a new operation when the time goes back (the page re-estimated the server clock)', () => {
    expect(coalesce(key(1000, 0), key(900, 1))).toBeNull();
  });

  it('times at most OPERATION_KEYS_MAX keys in one operation', () => {
    let run = key(0, 0);
    let pos = 1;
    for (;;) {
      const next = coalesce(run, key(pos * 10, pos));
      if (!next) break;
      run = next;
      pos++;
    }
    expect(run.keys!.length).toBe(OPERATION_KEYS_MAX - 1);
    expect(CompactOperationSchema.safeParse(toCompact(run, Date.parse(at))).success).toBe(true);
  });
});
