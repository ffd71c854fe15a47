import { fileTooLargeMessage } from '@exam/domain/candidate-messages';
import type { PendingUpload, TakerDb } from '../../../lib/taker-db.ts';
import { i18n } from '../../../i18n/index.ts';

/**
 * Answer files waiting for the server, kept in IndexedDB next to the answer outbox: a file chosen while
 * offline, or whose upload failed, survives a reload and is sent when the network returns.
 */

/** A file-upload answer reads 'File: {filename}'; the server records the same text when the file arrives. */
export const fileAnswer = (fileName: string) => `File: ${fileName}`;

/** A file over the server's limit: refused before anything is kept, with the server's own wording. */
export class FileTooLargeError extends Error {
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(fileTooLargeMessage(maxBytes));
    this.name = 'FileTooLargeError';
    this.maxBytes = maxBytes;
  }
}

/** The file's bytes through FileReader, which every browser the exam supports has (and jsdom too). */
export function readBytes(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error(i18n.t('exam:sync.readFailed')));
    reader.readAsArrayBuffer(file);
  });
}

const key = (upload: Pick<PendingUpload, 'attemptId' | 'questionIndex'>): [string, number] => [
  upload.attemptId,
  upload.questionIndex,
];

/**
 * Keeps the file and shows it as the answer, in one transaction. The answer is recorded as already
 * synced: the server writes 'File: {name}' itself when the file arrives, and a text save of it would
 * be an answer without its file.
 */
export async function queueUpload(db: TakerDb, file: Omit<PendingUpload, 'seq'>): Promise<PendingUpload> {
  const tx = db.transaction(['uploads', 'outbox'], 'readwrite');
  const uploads = tx.objectStore('uploads');
  const outbox = tx.objectStore('outbox');
  const previous = await uploads.get(key(file));
  const upload: PendingUpload = { ...file, seq: (previous?.seq ?? 0) + 1 };
  await uploads.put(upload);
  const current = await outbox.get(key(file));
  const seq = (current?.seq ?? 0) + 1;
  // The entry's other fields (its kept edit operations) stay as they are.
  await outbox.put({
    ...current,
    attemptId: file.attemptId,
    questionIndex: file.questionIndex,
    answer: fileAnswer(file.fileName),
    seq,
    syncedSeq: seq,
  });
  await tx.done;
  return upload;
}

export async function listUploads(db: TakerDb, attemptId: string): Promise<PendingUpload[]> {
  return db.getAllFromIndex('uploads', 'byAttempt', attemptId);
}

/**
 * The upload is over (stored, or refused for good): forgets the bytes and records `answer` as the
 * question's answer. Does nothing and answers false when another file was chosen meanwhile; that one
 * is still to be sent.
 */
export async function settleUpload(db: TakerDb, upload: PendingUpload, answer: string): Promise<boolean> {
  const tx = db.transaction(['uploads', 'outbox'], 'readwrite');
  const uploads = tx.objectStore('uploads');
  const outbox = tx.objectStore('outbox');
  const current = await uploads.get(key(upload));
  if (current?.seq !== upload.seq) {
    await tx.done;
    return false;
  }
  await uploads.delete(key(upload));
  const entry = await outbox.get(key(upload));
  const seq = (entry?.seq ?? 0) + 1;
  await outbox.put({
    ...entry,
    attemptId: upload.attemptId,
    questionIndex: upload.questionIndex,
    answer,
    seq,
    syncedSeq: seq,
  });
  await tx.done;
  return true;
}

/**
 * The candidate removed their answer file: any copy still waiting to be sent is dropped and the answer
 * becomes '' with a new seq, pending, so the next send tells the server the question is unanswered (the
 * server has no file deletion; an empty answer is what an unanswered question holds).
 */
export async function clearFileAnswer(db: TakerDb, attemptId: string, questionIndex: number): Promise<void> {
  const tx = db.transaction(['uploads', 'outbox'], 'readwrite');
  await tx.objectStore('uploads').delete([attemptId, questionIndex]);
  const outbox = tx.objectStore('outbox');
  const current = await outbox.get([attemptId, questionIndex]);
  await outbox.put({
    ...current,
    attemptId,
    questionIndex,
    answer: '',
    seq: (current?.seq ?? 0) + 1,
    syncedSeq: current?.syncedSeq ?? 0,
  });
  await tx.done;
}

/**
 * An upload the server stored after the candidate had removed the file: the server now holds the file's
 * answer with a seq one above what it had, so the local answer ('') is sent again two above it.
 */
export async function resendAfterLateUpload(db: TakerDb, upload: PendingUpload): Promise<boolean> {
  const tx = db.transaction(['uploads', 'outbox'], 'readwrite');
  const newer = await tx.objectStore('uploads').get(key(upload));
  const outbox = tx.objectStore('outbox');
  const entry = await outbox.get(key(upload));
  if (newer || !entry) {
    await tx.done;
    return false;
  }
  await outbox.put({ ...entry, seq: entry.seq + 2 });
  await tx.done;
  return true;
}
