import { decodeKeys, encodeKeys } from './key-intervals.ts';

/**
 * The rules of answer operations without their schemas (answer-operations.ts keeps those and re-exports all of
 * this): the candidate's page records, coalesces and sends operations with these alone, so the exam page needs no
 * zod (bench/README.md, "Page weight").
 *
 * Positions are UTF-16 code units, as JavaScript strings count them, in the answer as it was before the operation.
 */

/** Where inserted text came from. */
export const ANSWER_SOURCES = ['typed', 'pasted', 'assistant', 'autocomplete', 'restored'] as const;
export type AnswerSource = (typeof ANSWER_SOURCES)[number];

/** One change, as the timeline API gives it (AnswerOperationSchema in answer-operations.ts checks this shape). */
export type AnswerOperation = {
  at: string;
  from: number;
  to: number;
  insert: string;
  source: AnswerSource;
  keys?: number[] | undefined;
};

/** Sources in the compact form: one digit each, the index in ANSWER_SOURCES. */
const SOURCE_CODES: Record<AnswerSource, number> = { typed: 0, pasted: 1, assistant: 2, autocomplete: 3, restored: 4 };

/** Longest text one operation may insert (an answer's own limit, AnswerValueSchema). */
export const OPERATION_INSERT_MAX = 200_000;
/** Most operations one save may carry; a page with more pending sends them over several saves. */
export const OPERATIONS_PER_SAVE_MAX = 2_000;
/** Most keystrokes one coalesced operation may time. */
export const OPERATION_KEYS_MAX = 2_000;
/** Longest interval between two keystrokes one coalesced operation may hold (a day): longer ones start an operation. */
export const KEY_INTERVAL_MAX_MS = 86_400_000;

/** Highest index a save's operations may start at (the server counts them in 32-bit integers). */
export const OPERATIONS_START_MAX = 1_000_000_000;

/**
 * The compact form, as operations travel in a save and are stored: `[t, from, to, insert, source, keys?]` with
 * `t` the milliseconds since the attempt started (the server's clock, as the page estimates it), `source` the
 * index in ANSWER_SOURCES and `keys` the per-key intervals, encoded (encodeKeys); an insertion (`from` = `to`)
 * leaves out `to`: `[t, at, insert, source, keys?]` (the third element a string tells it apart). About three bytes
 * a typed character with its timing. The first form (every operation with its `to`, `keys` as a JSON array of
 * numbers) is still read, so chunks stored before stay valid; toCompact writes the shorter one. Read it with
 * fromCompact, never by position.
 */
export type CompactOperation =
  | [t: number, from: number, to: number, insert: string, source: number]
  | [t: number, from: number, to: number, insert: string, source: number, keys: string | number[]]
  | [t: number, at: number, insert: string, source: number]
  | [t: number, at: number, insert: string, source: number, keys: string];

export function toCompact(op: AnswerOperation, startedAtMs: number): CompactOperation {
  const t = Math.max(0, Math.round(Date.parse(op.at) - startedAtMs));
  const code = SOURCE_CODES[op.source];
  const keys = op.keys && op.keys.length > 0 ? encodeKeys(op.keys) : undefined;
  if (op.from === op.to) return keys ? [t, op.from, op.insert, code, keys] : [t, op.from, op.insert, code];
  return keys ? [t, op.from, op.to, op.insert, code, keys] : [t, op.from, op.to, op.insert, code];
}

export function fromCompact(op: CompactOperation, startedAtMs: number): AnswerOperation {
  const [t, from, to, insert, code, encoded] =
    typeof op[2] === 'string'
      ? [op[0], op[1], op[1], op[2], op[3] as number, op[4] as string | undefined]
      : (op as [number, number, number, string, number, (string | number[])?]);
  // A string that does not decode cannot come through CompactOperationSchema; read it as no timing.
  const keys = typeof encoded === 'string' ? (decodeKeys(encoded) ?? []) : encoded;
  const operation: AnswerOperation = {
    at: new Date(startedAtMs + t).toISOString(),
    from,
    to,
    insert,
    source: ANSWER_SOURCES[code] ?? 'restored',
  };
  if (keys && keys.length > 0) operation.keys = keys;
  return operation;
}

/** Why an operation cannot apply to the text it follows. */
export class OperationOutOfRange extends Error {}

/** Applies one operation; throws OperationOutOfRange when its range is not inside the text. */
export function applyOperation(text: string, op: Pick<AnswerOperation, 'from' | 'to' | 'insert'>): string {
  if (op.from > op.to || op.to > text.length) {
    throw new OperationOutOfRange(`[${op.from}, ${op.to}) is outside a text of ${text.length}`);
  }
  return text.slice(0, op.from) + op.insert + text.slice(op.to);
}

/** The answer after `ops`, replayed from the empty string. */
export function replay(ops: ReadonlyArray<Pick<AnswerOperation, 'from' | 'to' | 'insert'>>, initial = ''): string {
  let text = initial;
  for (const op of ops) text = applyOperation(text, op);
  return text;
}

/**
 * The smallest single replacement that turns `before` into `after` (their common prefix and suffix kept), or null
 * when they are equal. Used where an editor only reports the new value (a textarea), and to reconcile a replay
 * with the stored answer. The cut never splits a surrogate pair, so an emoji is inserted or deleted whole.
 */
export function diffOperation(before: string, after: string): { from: number; to: number; insert: string } | null {
  if (before === after) return null;
  const max = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  while (
    suffix < max - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  if (suffix > 0 && isLowSurrogate(before.charCodeAt(before.length - suffix))) suffix--;
  return { from: prefix, to: before.length - suffix, insert: after.slice(prefix, after.length - suffix) };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

const codePoints = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/**
 * `next` folded into `prev` when both are keystrokes of one run and replaying the result is the same as replaying
 * the two, else null. A run is typed text at the end of what was typed (each keystroke one code point), or
 * Backspace/Delete presses next to what was deleted (each one code point). The time of every keystroke is kept in
 * `keys`, so coalescing loses nothing the replay or the typing signals need.
 */
export function coalesce(prev: AnswerOperation | undefined, next: AnswerOperation): AnswerOperation | null {
  if (!prev || prev.source !== 'typed' || next.source !== 'typed') return null;
  const keys = prev.keys ?? [];
  if (keys.length + 1 >= OPERATION_KEYS_MAX) return null;
  const gap = Date.parse(next.at) - Date.parse(prev.at) - keys.reduce((a, b) => a + b, 0);
  // A negative gap (the page's clock estimate moved back) or one longer than the compact form holds: a new operation.
  if (!(gap >= 0 && gap <= KEY_INTERVAL_MAX_MS)) return null;
  if (prev.insert !== '') {
    const isOneKey = next.from === next.to && codePoints(next.insert) === 1;
    if (!isOneKey || next.from !== prev.from + prev.insert.length) return null;
    if (codePoints(prev.insert) !== keys.length + 1) return null;
    return { ...prev, insert: prev.insert + next.insert, keys: [...keys, gap] };
  }
  const deleted = next.to - next.from;
  // One key deletes one code point: one code unit, or two for a surrogate pair (the deleted text is not known here).
  const oneKey = next.insert === '' && (deleted === 1 || deleted === 2);
  if (!oneKey || prev.to === prev.from) return null;
  if (next.to === prev.from) return { ...prev, from: next.from, keys: [...keys, gap] };
  if (next.from === prev.from) return { ...prev, to: prev.to + deleted, keys: [...keys, gap] };
  return null;
}
