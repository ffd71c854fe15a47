import type { AnswerOperation } from '@exam/domain/answer-operations';
import type { ProctorEvent } from '@exam/domain/attempt';
import type { SectionState } from '@exam/domain/sections';
import type { PublicExam } from '@exam/domain/public-exam';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** An attempt this browser started, kept so a reload or a crash resumes it (docs/product.md#sitting-an-exam, 'Nothing lost'). */
export type StoredAttempt = {
  examId: string;
  attemptId: string;
  token: string;
  name: string;
  studentId: string;
  startedAt: string;
  deadline: string | null;
  fullScreenRequested: boolean;
  /** The last view of this attempt's exam (its snapshot), so the page still opens when the network is down. */
  exam?: PublicExam;
  /** Server clock minus client clock, in ms, from the last successful sync. */
  clockOffsetMs?: number;
  /** The largest answer file the server takes, from the last successful sync. */
  uploadMaxBytes?: number;
  /** Where the attempt was among the exam's sections at the last successful sync (sections.ts). */
  section?: SectionState | null;
};

/**
 * The latest value of one answer; it is pending until the server has acknowledged its seq, and while edit
 * operations of it wait in `operations` (features/exam/lib/operation-log.ts).
 */
export type OutboxEntry = {
  attemptId: string;
  questionIndex: number;
  answer: string;
  seq: number;
  syncedSeq: number;
  /** The server's number of the first operation still kept here: how many it holds, as far as this page knows. */
  opsStart?: number;
  /** How many operations are kept here (not acknowledged yet); they are numbered opsStart, opsStart + 1, … */
  opsHeld?: number;
  /** The local key of the next operation (keys only grow). */
  opsNext?: number;
  /** Operations with a key below this went out in a save: they can no longer take a coalesced keystroke. */
  opsSealed?: number;
};

/** One edit operation of an answer, kept until the server acknowledges it; `key` orders a question's operations. */
export type StoredOperation = { attemptId: string; questionIndex: number; key: number; op: AnswerOperation };

/** The attempt reached the server's storage cap for operations: this page records none for it any more. */
export type OperationCap = { attemptId: string; cappedAt: string };

export type QueuedEvent = { id?: number; attemptId: string; event: ProctorEvent };

/**
 * A file chosen as an answer that the server does not hold yet (offline, or the upload failed): its bytes,
 * name and type, so it survives a reload. One per question; choosing again replaces it (seq grows).
 */
export type PendingUpload = {
  attemptId: string;
  questionIndex: number;
  fileName: string;
  mimeType: string;
  bytes: ArrayBuffer;
  seq: number;
};

/**
 * The questions a candidate marked for review in one attempt: their own reminder, kept on this device only
 * (the server never grades or shows it), so it survives a reload like the answers do.
 */
export type QuestionFlags = { attemptId: string; questionIndexes: number[] };

export interface TakerDbSchema extends DBSchema {
  attempts: { key: string; value: StoredAttempt };
  outbox: { key: [string, number]; value: OutboxEntry; indexes: { byAttempt: string } };
  events: { key: number; value: QueuedEvent; indexes: { byAttempt: string } };
  uploads: { key: [string, number]; value: PendingUpload; indexes: { byAttempt: string } };
  flags: { key: string; value: QuestionFlags };
  operations: { key: [string, number, number]; value: StoredOperation };
  operationCaps: { key: string; value: OperationCap };
}

export type TakerDb = IDBPDatabase<TakerDbSchema>;

export const TAKER_DB_NAME = 'exam-taker';

export function openTakerDb(name: string = TAKER_DB_NAME): Promise<TakerDb> {
  return openDB<TakerDbSchema>(name, 4, {
    // A browser that still holds an older version (an attempt under way) keeps its stores and gains the new ones.
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('attempts', { keyPath: 'examId' });
        db.createObjectStore('outbox', { keyPath: ['attemptId', 'questionIndex'] }).createIndex(
          'byAttempt',
          'attemptId',
        );
        db.createObjectStore('events', { keyPath: 'id', autoIncrement: true }).createIndex('byAttempt', 'attemptId');
      }
      if (oldVersion < 2)
        db.createObjectStore('uploads', { keyPath: ['attemptId', 'questionIndex'] }).createIndex(
          'byAttempt',
          'attemptId',
        );
      if (oldVersion < 3) db.createObjectStore('flags', { keyPath: 'attemptId' });
      if (oldVersion < 4) {
        db.createObjectStore('operations', { keyPath: ['attemptId', 'questionIndex', 'key'] });
        db.createObjectStore('operationCaps', { keyPath: 'attemptId' });
      }
    },
  });
}

let shared: Promise<TakerDb> | undefined;

/** One connection per page. */
export function getTakerDb(): Promise<TakerDb> {
  shared ??= openTakerDb();
  return shared;
}

/** Tests replace the IndexedDB factory between cases; this drops the cached connection with it. */
export function resetTakerDbForTests(): void {
  shared = undefined;
}

export async function findStoredAttempt(db: TakerDb, examId: string): Promise<StoredAttempt | undefined> {
  return db.get('attempts', examId);
}

/** The attempts store is keyed by exam; a result link names the attempt, so this looks through them. */
export async function findStoredAttemptById(db: TakerDb, attemptId: string): Promise<StoredAttempt | undefined> {
  return (await db.getAll('attempts')).find((attempt) => attempt.attemptId === attemptId);
}

export async function saveStoredAttempt(db: TakerDb, attempt: StoredAttempt): Promise<void> {
  await db.put('attempts', attempt);
}

export async function updateStoredAttempt(db: TakerDb, examId: string, patch: Partial<StoredAttempt>): Promise<void> {
  const tx = db.transaction('attempts', 'readwrite');
  const current = await tx.store.get(examId);
  if (current) await tx.store.put({ ...current, ...patch });
  await tx.done;
}

export async function deleteStoredAttempt(db: TakerDb, examId: string): Promise<void> {
  await db.delete('attempts', examId);
}

/** The questions marked for review in the attempt, in question order; none when nothing was marked. */
export async function findQuestionFlags(db: TakerDb, attemptId: string): Promise<number[]> {
  return (await db.get('flags', attemptId))?.questionIndexes ?? [];
}

export async function saveQuestionFlags(db: TakerDb, attemptId: string, questionIndexes: number[]): Promise<void> {
  await db.put('flags', { attemptId, questionIndexes: [...questionIndexes].sort((a, b) => a - b) });
}
