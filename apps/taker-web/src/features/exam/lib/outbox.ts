import type { ProctorEvent } from '@exam/domain/attempt';
import type { OutboxEntry, TakerDb } from '../../../lib/taker-db.ts';
import { operationsOf, type AnswerEdit } from './answer-edits.ts';
import {
  appendOperations,
  catchUpOperations,
  heldOperations,
  OPERATION_STORES,
  restartOperations,
} from './operation-log.ts';

/**
 * The durable outbox: every answer change lands here before any request is made, with a per-question
 * seq that only grows, and with the edit operations that made it (operation-log.ts). An entry is pending
 * while seq > syncedSeq or while it keeps operations the server has not acknowledged.
 */

export type ServerAnswers = Record<string, { answer: string; seq: number; operations?: number | undefined }>;

/** An answer change as the page saw it: what made it, and when (the server's clock, as the page estimates it). */
export type TimedEdit = { edit: AnswerEdit; at: string };

export async function recordAnswer(
  db: TakerDb,
  attemptId: string,
  questionIndex: number,
  answer: string,
  change?: TimedEdit,
): Promise<OutboxEntry> {
  const tx = db.transaction(OPERATION_STORES, 'readwrite');
  const outbox = tx.objectStore('outbox');
  const current = await outbox.get([attemptId, questionIndex]);
  let entry: OutboxEntry = {
    ...current,
    attemptId,
    questionIndex,
    answer,
    seq: (current?.seq ?? 0) + 1,
    syncedSeq: current?.syncedSeq ?? 0,
  };
  if (change && !(await tx.objectStore('operationCaps').get(attemptId))) {
    entry = await appendOperations(tx, entry, operationsOf(current?.answer ?? '', answer, change.edit, change.at));
  }
  await outbox.put(entry);
  await tx.done;
  return entry;
}

/** Marks `seq` acknowledged; a newer local value written meanwhile stays pending. */
export async function markSynced(db: TakerDb, attemptId: string, questionIndex: number, seq: number): Promise<void> {
  const tx = db.transaction('outbox', 'readwrite');
  const current = await tx.store.get([attemptId, questionIndex]);
  if (current && seq > current.syncedSeq) await tx.store.put({ ...current, syncedSeq: Math.min(seq, current.seq) });
  await tx.done;
}

export async function listAnswers(db: TakerDb, attemptId: string): Promise<OutboxEntry[]> {
  return db.getAllFromIndex('outbox', 'byAttempt', attemptId);
}

export async function listPending(db: TakerDb, attemptId: string): Promise<OutboxEntry[]> {
  return (await listAnswers(db, attemptId)).filter((entry) => entry.seq > entry.syncedSeq || heldOperations(entry) > 0);
}

/**
 * Resume: the server's answers fill in what this device lacks or holds an older seq of; a local value
 * with a newer seq wins and stays pending. The operations follow the answer that wins: numbering goes on
 * from the count the server holds, and a local value that lost takes its unsent operations with it.
 * Returns the merged answers by question index.
 */
export async function mergeServerAnswers(
  db: TakerDb,
  attemptId: string,
  server: ServerAnswers,
): Promise<Map<number, string>> {
  const tx = db.transaction(OPERATION_STORES, 'readwrite');
  const outbox = tx.objectStore('outbox');
  for (const [key, remote] of Object.entries(server)) {
    const questionIndex = Number(key);
    if (!Number.isInteger(questionIndex)) continue;
    const local = await outbox.get([attemptId, questionIndex]);
    if (!local || local.seq < remote.seq) {
      const entry: OutboxEntry = {
        ...local,
        attemptId,
        questionIndex,
        answer: remote.answer,
        seq: remote.seq,
        syncedSeq: remote.seq,
      };
      await restartOperations(tx, entry, remote.operations ?? local?.opsStart ?? 0);
      await outbox.put(entry);
    } else {
      const entry: OutboxEntry = { ...local, syncedSeq: Math.max(local.syncedSeq, remote.seq) };
      if (remote.operations !== undefined) await catchUpOperations(tx, entry, remote.operations);
      await outbox.put(entry);
    }
  }
  await tx.done;
  return new Map((await listAnswers(db, attemptId)).map((entry) => [entry.questionIndex, entry.answer]));
}

export async function enqueueEvent(db: TakerDb, attemptId: string, event: ProctorEvent): Promise<void> {
  await db.add('events', { attemptId, event });
}

export async function peekEvents(
  db: TakerDb,
  attemptId: string,
  limit: number,
): Promise<Array<{ id: number; event: ProctorEvent }>> {
  const rows = await db.getAllFromIndex('events', 'byAttempt', attemptId, limit);
  return rows.flatMap((row) => (row.id === undefined ? [] : [{ id: row.id, event: row.event }]));
}

export async function removeEvents(db: TakerDb, ids: number[]): Promise<void> {
  const tx = db.transaction('events', 'readwrite');
  await Promise.all(ids.map((id) => tx.store.delete(id)));
  await tx.done;
}
