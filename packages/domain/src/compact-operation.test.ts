import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CompactOperationSchema,
  compactInsert,
  OPERATION_INSERT_MAX,
  OPERATION_KEYS_MAX,
  OPERATIONS_START_MAX,
  SaveOperationsSchema,
  toCompact,
} from './answer-operations.ts';
import { encodeKeys } from './key-intervals.ts';

describe('the compact operation as a save carries it', () => {
  it('takes every form, with whole numbers from 0, a source 0–4 and key intervals up to a day', () => {
    for (const op of [
      [0, 0, 0, '', 0],
      [1234, 5, 9, 'text', 4],
      [10, 3, 3, 'abc', 0, [120, 95]],
      [10, 3, 3, 'a', 0, []],
      [10, 3, 5, 'abc', 0, encodeKeys([120, 95])],
      [10, 3, 'abc', 0],
      [10, 3, 'abc', 0, encodeKeys([120, 5_000])],
      [10, 0, 0, 'x'.repeat(OPERATION_INSERT_MAX), 1],
      [10, 0, 0, 'k', 0, Array.from({ length: OPERATION_KEYS_MAX }, () => 86_400_000)],
      [10, 0, 'k', 0, encodeKeys(Array.from({ length: OPERATION_KEYS_MAX }, () => 86_400_000))],
    ]) {
      expect(CompactOperationSchema.safeParse(op).success, JSON.stringify(op).slice(0, 60)).toBe(true);
    }
  });

  it('refuses anything else, each with the reason', () => {
    for (const op of [
      [0, 0, 0, 'x'],
      [0, 0, 0, 'x', 0, [1], 7],
      [-1, 0, 0, 'x', 0],
      [0, 1.5, 0, 'x', 0],
      [0, 0, 0, 'x', 5],
      [0, 0, 0, 7, 0],
      [0, 0, 0, 'x', 0, [86_400_001]],
      [0, 0, 'x', 0, [120]],
      [0, 0, 'x', 0, 'A'],
      [0, 0, 'x', 0, encodeKeys([86_400_001])],
      [0, 0, 'x', 0, 'AB', 1],
      [0, 0, 'x'],
      [0, 0, 0, 'x', 0, [-3]],
      [0, 0, 0, 'x', 0, 'ke!s'],
      [0, 0, 0, 'x', 0, Array.from({ length: OPERATION_KEYS_MAX + 1 }, () => 1)],
      [0, 0, 0, 'x'.repeat(OPERATION_INSERT_MAX + 1), 0],
      [Number.MAX_SAFE_INTEGER + 1, 0, 0, 'x', 0],
      { t: 0 },
      'op',
    ]) {
      const parsed = CompactOperationSchema.safeParse(op);
      expect(parsed.success, JSON.stringify(op)?.slice(0, 60)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/^An operation is \[t, from, to, insert, source, keys\?\]/);
    }
  });

  it('names the operation that is wrong, and bounds where a save’s operations start', () => {
    const parsed = SaveOperationsSchema.safeParse({
      start: 0,
      ops: [
        [0, 0, 0, 'a', 0],
        [0, 0, 0, 'b', 9],
      ],
    });
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([['ops', 1]]);
    expect(SaveOperationsSchema.safeParse({ start: OPERATIONS_START_MAX + 1, ops: [[0, 0, 0, 'a', 0]] }).success).toBe(
      false,
    );
  });

  it('accepts what toCompact writes, and gives every form’s inserted text and source', () => {
    const typed = toCompact(
      { at: '2030-01-01T00:00:01Z', from: 4, to: 4, insert: 'abc', source: 'pasted', keys: [90, 100] },
      0,
    );
    const replaced = toCompact({ at: '2030-01-01T00:00:02Z', from: 1, to: 3, insert: 'xy', source: 'assistant' }, 0);
    for (const op of [typed, replaced]) expect(CompactOperationSchema.safeParse(op).success).toBe(true);
    expect([typed, replaced, [0, 0, 0, 'z', 3, [1]]].map((op) => compactInsert(op as never))).toEqual([
      { insert: 'abc', source: 1 },
      { insert: 'xy', source: 2 },
      { insert: 'z', source: 3 },
    ]);
  });

  it('documents the same forms in JSON Schema (OpenAPI)', () => {
    const schema = z.toJSONSchema(CompactOperationSchema, { unrepresentable: 'any' }) as { anyOf: unknown[] };
    expect(schema.anyOf).toEqual([
      expect.objectContaining({ type: 'array', minItems: 5, maxItems: 6 }),
      expect.objectContaining({ type: 'array', minItems: 4, maxItems: 5 }),
    ]);
  });
});
