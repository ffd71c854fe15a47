import type { ProctorEvent } from '@exam/domain/attempt';
import { DEFAULT_UPLOAD_MAX_BYTES } from '@exam/domain/candidate-messages';
import type { OutboxEntry, TakerDb } from '../../../lib/taker-db.ts';
import type { AnswerEdit } from './answer-edits.ts';
import { enqueueEvent, recordAnswer } from './outbox.ts';
import { clearFileAnswer, fileAnswer, FileTooLargeError, queueUpload, readBytes } from './uploads.ts';

/**
 * The page's writes into IndexedDB (answers, answer files, proctoring events), each followed by a send:
 * answers after a debounce per question, events after one shared debounce, files at once.
 */
export function createOutboxWriter(options: {
  db: TakerDb;
  attemptId: string;
  debounceMs: number;
  eventDebounceMs: number;
  uploadMaxBytes: number | undefined;
  /** Server clock minus this device's, so each edit is timed as the server would have. */
  clockOffsetMs: number;
  /** Closed or disposed: keep the write, send nothing. */
  isStopped: () => boolean;
  /** Something now waits to be sent. */
  showBusy: () => void;
  send: () => void;
}) {
  const { db, attemptId } = options;
  const debounces = new Map<number, ReturnType<typeof setTimeout>>();
  const writes = new Set<Promise<unknown>>();
  let eventTimer: ReturnType<typeof setTimeout> | undefined;

  function track<T>(promise: Promise<T>): Promise<T> {
    writes.add(promise);
    void promise.finally(() => writes.delete(promise)).catch(() => undefined);
    return promise;
  }

  function clearDebounces() {
    for (const timer of debounces.values()) clearTimeout(timer);
    debounces.clear();
  }

  async function saveAnswer(questionIndex: number, typed: string, edit?: AnswerEdit): Promise<OutboxEntry> {
    // A pasted U+0000 is invisible and cannot be stored (the server refuses it with a 400): dropping it here
    // keeps the rest of the answer saving instead of failing again on every retry.
    const answer = typed.replaceAll('\u0000', '');
    const change = edit && { edit, at: new Date(Date.now() + options.clockOffsetMs).toISOString() };
    const entry = await track(recordAnswer(db, attemptId, questionIndex, answer, change));
    if (options.isStopped()) return entry;
    options.showBusy();
    clearTimeout(debounces.get(questionIndex));
    debounces.set(
      questionIndex,
      setTimeout(() => {
        debounces.delete(questionIndex);
        options.send();
      }, options.debounceMs),
    );
    return entry;
  }

  async function saveFile(questionIndex: number, file: File): Promise<string> {
    const maxBytes = options.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
    if (file.size > maxBytes) throw new FileTooLargeError(maxBytes);
    const keep = async () =>
      queueUpload(db, {
        attemptId,
        questionIndex,
        fileName: file.name,
        mimeType: file.type || 'application/octet-stream',
        bytes: await readBytes(file),
      });
    const upload = await track(keep());
    if (!options.isStopped()) {
      options.showBusy();
      options.send();
    }
    return fileAnswer(upload.fileName);
  }

  /** Forgets the answer file (also one not sent yet) and sends the now empty answer at once. */
  async function removeFile(questionIndex: number): Promise<void> {
    clearTimeout(debounces.get(questionIndex));
    debounces.delete(questionIndex);
    await track(clearFileAnswer(db, attemptId, questionIndex));
    if (options.isStopped()) return;
    options.showBusy();
    options.send();
  }

  async function logEvent(event: ProctorEvent): Promise<void> {
    await track(enqueueEvent(db, attemptId, { clientAt: new Date().toISOString(), ...event }));
    if (options.isStopped() || eventTimer) return;
    eventTimer = setTimeout(() => {
      eventTimer = undefined;
      options.send();
    }, options.eventDebounceMs);
  }

  return {
    saveAnswer,
    saveFile,
    removeFile,
    logEvent,
    /** Skips the answer debounces and waits for the writes still going into IndexedDB. */
    async settle() {
      clearDebounces();
      await Promise.allSettled([...writes]);
    },
    dispose() {
      clearDebounces();
      clearTimeout(eventTimer);
    },
  };
}
