import { coalesce, type AnswerOperation } from '@exam/domain/answer-operation-rules';
import type { IDBPTransaction } from 'idb';
import type { OutboxEntry, StoredOperation, TakerDb, TakerDbSchema } from '../../../lib/taker-db.ts';

/**
 * Each answer's edit operations (@exam/domain/answer-operations), kept in IndexedDB until the server acknowledges
 * them. They are written in the transaction that writes the answer to the outbox, so the recorded
 * operations always replay to the answer kept there. The server numbers a question's operations from 0 and keeps a
 * chunk once however often it comes (only what lies past the count it holds): the page sends the operations it
 * keeps from `opsStart`, the count the server last acknowledged, and forgets them once acknowledged. A keystroke
 * folds into the last operation (coalesce) only while that operation has not been sent.
 */

export const OPERATION_STORES = ['outbox', 'operations', 'operationCaps'] as const;
type OperationTx = IDBPTransaction<TakerDbSchema, ['outbox', 'operations', 'operationCaps'], 'readwrite'>;

const questionRange = (attemptId: string, questionIndex: number) =>
  IDBKeyRange.bound([attemptId, questionIndex, 0], [attemptId, questionIndex, Infinity]);
const attemptRange = (attemptId: string) =>
  IDBKeyRange.bound([attemptId, -Infinity, -Infinity], [attemptId, Infinity, Infinity]);

export const heldOperations = (entry: OutboxEntry | undefined) => entry?.opsHeld ?? 0;

/** Adds `ops` after the question's kept operations; returns the entry with its counters moved on (not yet put). */
export async function appendOperations(
  tx: OperationTx,
  entry: OutboxEntry,
  ops: AnswerOperation[],
): Promise<OutboxEntry> {
  if (ops.length === 0) return entry;
  const store = tx.objectStore('operations');
  const { attemptId, questionIndex } = entry;
  let next = entry.opsNext ?? 0;
  let held = heldOperations(entry);
  const sealed = entry.opsSealed ?? 0;
  // The last kept operation, while it may still change (not sent yet): keystrokes fold into it.
  let tail: StoredOperation | undefined =
    held > 0 && next - 1 >= sealed ? await store.get([attemptId, questionIndex, next - 1]) : undefined;
  for (const op of ops) {
    const folded = tail ? coalesce(tail.op, op) : null;
    if (tail && folded) {
      tail = { ...tail, op: folded };
    } else {
      if (tail) await store.put(tail);
      tail = { attemptId, questionIndex, key: next++, op };
      held++;
    }
  }
  if (tail) await store.put(tail);
  return { ...entry, opsNext: next, opsHeld: held };
}

export type OperationChunk = { start: number; ops: AnswerOperation[] };

/**
 * What the next save of a question carries: its answer and seq, and up to `limit` of its kept operations from the
 * first (numbered from opsStart). Those operations are sealed in the same transaction, before the request leaves:
 * the server may store them whatever becomes of the response, so they never change afterwards.
 */
export async function takeSave(
  db: TakerDb,
  attemptId: string,
  questionIndex: number,
  limit: number,
): Promise<{ entry: OutboxEntry; chunk: OperationChunk | null } | undefined> {
  const tx = db.transaction(OPERATION_STORES, 'readwrite');
  const outbox = tx.objectStore('outbox');
  const entry = await outbox.get([attemptId, questionIndex]);
  if (!entry) {
    await tx.done;
    return undefined;
  }
  let chunk: OperationChunk | null = null;
  if (heldOperations(entry) > 0 && !(await tx.objectStore('operationCaps').get(attemptId))) {
    const kept = await tx.objectStore('operations').getAll(questionRange(attemptId, questionIndex), limit);
    const last = kept.at(-1);
    if (last) {
      chunk = { start: entry.opsStart ?? 0, ops: kept.map((row) => row.op) };
      if (last.key >= (entry.opsSealed ?? 0)) await outbox.put({ ...entry, opsSealed: last.key + 1 });
    }
  }
  await tx.done;
  return { entry, chunk };
}

/** Forgets the first `count` kept operations of a question; the entry is changed in place (put it after). */
async function dropFirst(tx: OperationTx, entry: OutboxEntry, count: number): Promise<void> {
  if (count <= 0) return;
  const store = tx.objectStore('operations');
  const keys = await store.getAllKeys(questionRange(entry.attemptId, entry.questionIndex), count);
  for (const key of keys) await store.delete(key);
  entry.opsHeld = Math.max(0, heldOperations(entry) - keys.length);
}

/**
 * The server holds `end` operations of the question after a save that carried operations `sent.start` …
 * (`sent.count` of them): those it now holds are forgotten here and the kept ones are numbered from `end`. An `end`
 * past what was sent (another device saved this question) or short of `sent.start` numbers the rest after what the
 * server holds, so they are not skipped as already stored.
 */
export async function acknowledgeOperations(
  db: TakerDb,
  attemptId: string,
  questionIndex: number,
  sent: { start: number; count: number },
  end: number,
): Promise<void> {
  const tx = db.transaction(OPERATION_STORES, 'readwrite');
  const outbox = tx.objectStore('outbox');
  const entry = await outbox.get([attemptId, questionIndex]);
  if (entry && (entry.opsStart ?? 0) === sent.start) {
    await dropFirst(tx, entry, Math.min(end - sent.start, sent.count));
    await outbox.put({ ...entry, opsStart: end });
  }
  await tx.done;
}

/** A save refused for good with its operations (bad input): those are forgotten so the answer itself can save. */
export async function discardOperations(
  db: TakerDb,
  attemptId: string,
  questionIndex: number,
  count: number,
): Promise<void> {
  const tx = db.transaction(OPERATION_STORES, 'readwrite');
  const outbox = tx.objectStore('outbox');
  const entry = await outbox.get([attemptId, questionIndex]);
  if (entry) {
    await dropFirst(tx, entry, count);
    await outbox.put(entry);
  }
  await tx.done;
}

/**
 * The server reached the attempt's storage cap for operations: it keeps no more (the answers still save), so this
 * page stops recording them for the attempt, for good, and forgets those it kept.
 */
export async function capOperations(db: TakerDb, attemptId: string, now = new Date()): Promise<void> {
  const tx = db.transaction(OPERATION_STORES, 'readwrite');
  await tx.objectStore('operationCaps').put({ attemptId, cappedAt: now.toISOString() });
  await tx.objectStore('operations').delete(attemptRange(attemptId));
  const outbox = tx.objectStore('outbox');
  for (const entry of await outbox.index('byAttempt').getAll(attemptId)) {
    if (heldOperations(entry) > 0) await outbox.put({ ...entry, opsHeld: 0, opsSealed: entry.opsNext ?? 0 });
  }
  await tx.done;
}

export async function isCapped(db: TakerDb, attemptId: string): Promise<boolean> {
  return (await db.get('operationCaps', attemptId)) !== undefined;
}

/**
 * Resume: the server's answer won (a newer seq), so this device's operations not yet sent lead to an older value;
 * they are dropped and numbering goes on from the count the server holds.
 */
export async function restartOperations(tx: OperationTx, entry: OutboxEntry, serverCount: number): Promise<void> {
  await dropFirst(tx, entry, heldOperations(entry));
  entry.opsStart = serverCount;
  entry.opsSealed = entry.opsNext ?? 0;
}

/** Resume with this device's answer kept: the server may hold some of the kept operations already (a lost reply). */
export async function catchUpOperations(tx: OperationTx, entry: OutboxEntry, serverCount: number): Promise<void> {
  const start = entry.opsStart ?? 0;
  await dropFirst(tx, entry, Math.min(serverCount - start, heldOperations(entry)));
  entry.opsStart = serverCount;
}
