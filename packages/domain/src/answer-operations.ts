import { z } from 'zod';
import {
  ANSWER_SOURCES,
  KEY_INTERVAL_MAX_MS,
  OPERATION_INSERT_MAX,
  OPERATION_KEYS_MAX,
  OPERATIONS_PER_SAVE_MAX,
  OPERATIONS_START_MAX,
  applyOperation,
  diffOperation,
  type AnswerOperation,
  type AnswerSource,
  type CompactOperation,
} from './answer-operation-rules.ts';
import { decodeKeys } from './key-intervals.ts';
export * from './answer-operation-rules.ts';

/**
 * How an answer came to be (issue 31): every change to an answer is an operation, recorded by the candidate's page,
 * sent with the autosave and stored append-only per attempt and question. Replaying a question's operations from
 * the empty string gives its answer; each character of the result carries the source of the operation that put
 * it there.
 *
 * Positions are UTF-16 code units, as JavaScript strings count them, in the answer as it was before the operation.
 */

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
// The schema checks exactly the operation type the zod-free rules work on (answer-operation-rules.ts).
AnswerOperationSchema satisfies z.ZodType<AnswerOperation, AnswerOperation>;

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
