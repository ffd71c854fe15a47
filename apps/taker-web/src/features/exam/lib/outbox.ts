import type { ProctorEvent } from '@exam/domain/attempt';
import type { OutboxEntry, TakerDb } from '../../../lib/taker-db.ts';

/**
 * The durable outbox: every answer change lands here before any request is made, with a per-question
 * seq that only grows. An entry is pending while seq > syncedSeq.
 */

export type ServerAnswers = Record<string, { answer: string; seq: number }>;

export async function recordAnswer(
  db: TakerDb,
  attemptId: string,
  questionIndex: number,
  answer: string,
): Promise<OutboxEntry> {
  const tx = db.transaction('outbox', 'readwrite');
  const current = await tx.store.get([attemptId, questionIndex]);
  const entry: OutboxEntry = {
    attemptId,
    questionIndex,
    answer,
    seq: (current?.seq ?? 0) + 1,
    syncedSeq: current?.syncedSeq ?? 0,
  };
  await tx.store.put(entry);
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
  return (await listAnswers(db, attemptId)).filter((entry) => entry.seq > entry.syncedSeq);
}

/**
 * Resume: the server's answers fill in what this device lacks or holds an older seq of; a local value
 * with a newer seq wins and stays pending. Returns the merged answers by question index.
 */
export async function mergeServerAnswers(
  db: TakerDb,
  attemptId: string,
  server: ServerAnswers,
): Promise<Map<number, string>> {
  const tx = db.transaction('outbox', 'readwrite');
  for (const [key, remote] of Object.entries(server)) {
    const questionIndex = Number(key);
    if (!Number.isInteger(questionIndex)) continue;
    const local = await tx.store.get([attemptId, questionIndex]);
    if (!local || local.seq < remote.seq) {
      await tx.store.put({ attemptId, questionIndex, answer: remote.answer, seq: remote.seq, syncedSeq: remote.seq });
    } else if (local.syncedSeq < remote.seq) {
      await tx.store.put({ ...local, syncedSeq: remote.seq });
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
