import { z } from 'zod';
import { decodeKeys, encodeKeys } from './key-intervals.ts';

/**
 * How an answer came to be (issue 31): every change to an answer is an operation, recorded by the candidate's page,
 * sent with the autosave and stored append-only per attempt and question. Replaying a question's operations from
 * the empty string gives its answer; each character of the result carries the source of the operation that put
 * it there.
 *
 * Positions are UTF-16 code units, as JavaScript strings count them, in the answer as it was before the operation.
 */

/** Where inserted text came from. */
export const ANSWER_SOURCES = ['typed', 'pasted', 'assistant', 'autocomplete', 'restored'] as const;
export type AnswerSource = (typeof ANSWER_SOURCES)[number];
export const AnswerSourceSchema = z.enum(ANSWER_SOURCES);

/**
 * One change, as the timeline API gives it: the answer's [from, to) is replaced by `insert`.
 *
 * `keys` keeps per-keystroke timing when consecutive keystrokes were coalesced into one operation: one entry per
 * keystroke after the first, each the milliseconds since the previous keystroke. A coalesced insertion's
 * keystrokes are its code points in order (each typed key inserted exactly one); a coalesced deletion's are
 * single code-point deletions (Backspace moving left, Delete staying put). Replaying the coalesced operation is
 * the same as replaying its keystrokes one by one.
 */
export const AnswerOperationSchema = z.object({
  at: z.string(),
  from: z.number().int().min(0),
  to: z.number().int().min(0),
  insert: z.string(),
  source: AnswerSourceSchema,
  keys: z.array(z.number().int().min(0)).optional(),
});
export type AnswerOperation = z.infer<typeof AnswerOperationSchema>;

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

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function isKeys(keys: unknown, arrayAllowed: boolean): boolean {
  if (typeof keys === 'string') {
    if (keys.length > OPERATION_KEYS_MAX * 6) return false;
    const decoded = decodeKeys(keys);
    return (
      decoded !== null && decoded.length <= OPERATION_KEYS_MAX && decoded.every((key) => key <= KEY_INTERVAL_MAX_MS)
    );
  }
  if (!arrayAllowed || !Array.isArray(keys) || keys.length > OPERATION_KEYS_MAX) return false;
  for (const key of keys) if (!isCount(key) || key > KEY_INTERVAL_MAX_MS) return false;
  return true;
}

/**
 * Whether `value` is a well-formed compact operation in one of its forms: whole numbers from 0 (source 0–4), an
 * insert of at most OPERATION_INSERT_MAX code units, keys as encodeKeys writes them (or, in the long form, a JSON
 * array) of at most OPERATION_KEYS_MAX intervals of at most KEY_INTERVAL_MAX_MS. Positions are not checked against
 * any text: replaying reconciles an operation that does not fit.
 */
export function isCompactOperation(value: unknown): value is CompactOperation {
  if (!Array.isArray(value)) return false;
  const short = typeof value[2] === 'string';
  const length = value.length - (short ? 4 : 5);
  if (length !== 0 && length !== 1) return false;
  const [t, from] = value as unknown[];
  const [to, insert, source, keys] = (short ? [from, ...value.slice(2)] : value.slice(2)) as unknown[];
  if (!isCount(t) || !isCount(from) || !isCount(to) || !isCount(source) || source > 4) return false;
  if (typeof insert !== 'string' || insert.length > OPERATION_INSERT_MAX) return false;
  return length === 0 || isKeys(keys, !short);
}

/** The inserted text and the source code of a compact operation, whichever its form (for counting, not replaying). */
export function compactInsert(op: CompactOperation): { insert: string; source: number } {
  return typeof op[2] === 'string'
    ? { insert: op[2], source: op[3] as number }
    : { insert: op[3] as string, source: op[4] as number };
}

const count = { type: 'integer', minimum: 0 } as const;
const insertText = { type: 'string', maxLength: OPERATION_INSERT_MAX } as const;
const sourceCode = { type: 'integer', minimum: 0, maximum: 4 } as const;
const encodedKeys = { type: 'string', maxLength: OPERATION_KEYS_MAX * 6 } as const;
const keyArray = {
  type: 'array',
  maxItems: OPERATION_KEYS_MAX,
  items: { type: 'integer', minimum: 0, maximum: KEY_INTERVAL_MAX_MS },
} as const;

/**
 * CompactOperation, checked by one function instead of a union of zod tuples: a save carries dozens of operations,
 * and the tuples cost the autosave about 30 µs a save where this costs about 1 (bench/README.md, results-service
 * saves with operations). The JSON Schema (OpenAPI) states the same forms.
 */
export const CompactOperationSchema = z
  .custom<CompactOperation>(isCompactOperation, {
    message: `An operation is [t, from, to, insert, source, keys?] or, for an insertion, [t, at, insert, source, keys?]: whole numbers from 0 (source 0–4), an insert of at most ${OPERATION_INSERT_MAX} characters, keys as encodeKeys writes them (at most ${OPERATION_KEYS_MAX}, each at most a day)`,
  })
  .meta({
    anyOf: [
      {
        type: 'array',
        minItems: 5,
        maxItems: 6,
        prefixItems: [count, count, count, insertText, sourceCode, { anyOf: [encodedKeys, keyArray] }],
      },
      { type: 'array', minItems: 4, maxItems: 5, prefixItems: [count, count, insertText, sourceCode, encodedKeys] },
    ],
  });

/**
 * The operations a save carries: the page's operations `start`, `start + 1`, … for this question. The server
 * stores them once however often they are sent (a retried save, a lost acknowledgement), in order (appendChunk).
 * When a page's pending operations take several saves, each save's answer is the text after its own last
 * operation, not the page's current text: the stored answer then always equals the stored operations replayed, so
 * a page that lost its outbox and resumes from the server's answer and count records on from a consistent state.
 */
export const SaveOperationsSchema = z.object({
  start: z.number().int().min(0).max(OPERATIONS_START_MAX),
  ops: z.array(CompactOperationSchema).min(1).max(OPERATIONS_PER_SAVE_MAX),
});
export type SaveOperations = z.infer<typeof SaveOperationsSchema>;

/**
 * The server's storage rule for one question: given how many operations it holds (`end`), the part of a sent
 * chunk it does not hold yet, or null when there is nothing to store. What overlaps is dropped — a save sent again
 * after its acknowledgement was lost (the same `start`), or sent again longer with the operations recorded since —
 * so every operation is stored once, in order, whatever the retries. A chunk that starts past `end` is refused
 * (null): the operations between are missing and storing it would misnumber the rest; the response's
 * `operationsEnd` (= `end`) tells the page where the server stands.
 *
 * Overlapping operations are not compared with what is stored: a page never changes an operation once it has put
 * it in a save (it coalesces only into operations not yet sent), so the first copy stored is the operation.
 */
export function appendChunk(stored: { end: number }, chunk: SaveOperations): SaveOperations | null {
  if (chunk.start > stored.end) return null;
  const known = stored.end - chunk.start;
  if (known >= chunk.ops.length) return null;
  return { start: stored.end, ops: chunk.ops.slice(known) };
}

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

/** Characters (UTF-16 code units) of a text by the source that put each there. */
export type SourceShares = Record<AnswerSource, number>;

export const emptyShares = (): SourceShares => ({ typed: 0, pasted: 0, assistant: 0, autocomplete: 0, restored: 0 });

/**
 * Replays `ops` keeping, for every character, the source that inserted it; returns the text and the sources in
 * runs (`[length, source]`, adjacent equal sources merged), so a grader's page can colour the final answer.
 */
export function replayWithSources(ops: ReadonlyArray<AnswerOperation>): {
  text: string;
  runs: Array<[number, AnswerSource]>;
} {
  let text = '';
  // Runs, not one entry per character: an hour of typing is a few hundred runs, not fifty thousand entries.
  let runs: Array<[number, AnswerSource]> = [];
  for (const op of ops) {
    text = applyOperation(text, op);
    runs = spliceRuns(runs, op.from, op.to - op.from, op.insert.length, op.source);
  }
  return { text, runs };
}

function spliceRuns(
  runs: Array<[number, AnswerSource]>,
  at: number,
  deleteCount: number,
  insertCount: number,
  source: AnswerSource,
): Array<[number, AnswerSource]> {
  const out: Array<[number, AnswerSource]> = [];
  const push = (length: number, src: AnswerSource) => {
    if (length <= 0) return;
    const last = out[out.length - 1];
    if (last && last[1] === src) last[0] += length;
    else out.push([length, src]);
  };
  let pos = 0;
  let inserted = false;
  const end = at + deleteCount;
  for (const [length, src] of runs) {
    const runEnd = pos + length;
    // Keep the part of this run before `at` and the part after `end`; the insertion goes in at `at`.
    push(Math.min(runEnd, at) - pos, src);
    if (!inserted && runEnd >= at) {
      push(insertCount, source);
      inserted = true;
    }
    push(runEnd - Math.max(pos, end), src);
    pos = runEnd;
  }
  if (!inserted) push(insertCount, source);
  return out;
}

/** Characters of the final answer by source. */
export function sharesOf(runs: ReadonlyArray<[number, AnswerSource]>): SourceShares {
  const shares = emptyShares();
  for (const [length, source] of runs) shares[source] += length;
  return shares;
}

/**
 * The operations of one answer made to end exactly at `final`: when the recorded operations do not replay to it (a
 * page that stopped recording at the storage cap, a save from another device, a page that lost its log), a
 * `restored` operation at `at` closes the gap with the smallest replacement. An operation that does not fit the
 * text it follows starts the replay again from there with a `restored` operation, so the result is always exact.
 */
export function reconcile(
  ops: ReadonlyArray<AnswerOperation>,
  final: string,
  at: string,
): { operations: AnswerOperation[]; reconciled: boolean } {
  const operations: AnswerOperation[] = [];
  let text = '';
  let reconciled = false;
  for (const op of ops) {
    if (op.from <= op.to && op.to <= text.length) {
      operations.push(op);
      text = applyOperation(text, op);
    } else {
      // Unreplayable: keep its intent where it can be kept (its inserted text at the clamped position).
      const from = Math.min(op.from, text.length);
      const fixed = { ...op, from, to: Math.min(Math.max(op.to, from), text.length), source: 'restored' as const };
      delete fixed.keys;
      operations.push(fixed);
      text = applyOperation(text, fixed);
      reconciled = true;
    }
  }
  const gap = diffOperation(text, final);
  if (gap) {
    operations.push({ at, ...gap, source: 'restored' });
    reconciled = true;
  }
  return { operations, reconciled };
}

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
