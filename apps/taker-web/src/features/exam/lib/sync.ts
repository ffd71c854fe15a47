import type { ProctorEvent, SubmitResponse } from '@exam/domain/attempt';
import type { OutboxEntry, TakerDb } from '../../../lib/taker-db.ts';
import type { AnswerEdit } from './answer-edits.ts';
import { createOutboxWriter } from './outbox-writer.ts';
import { submitAttempt } from './submit-attempt.ts';
import { createConnectivityListener } from './sync-connectivity.ts';
import { createDrain } from './sync-drain.ts';
import { createRetryScheduler } from './sync-retry.ts';
import { createSyncState, type SaveStatus } from './sync-state.ts';

/**
 * Moves the outbox (answers, answer files, proctoring events) to the server: debounced per question,
 * retried with exponential backoff, stopped for good once the server says the attempt is closed
 * (409 ATTEMPT_CLOSED). The page only talks to this.
 *
 * The parts, each in its own file: outbox-writer (writes and their debounces), sync-drain with one
 * sender per channel (send-answers, send-uploads, send-events), sync-retry (the backoff), sync-state
 * (the status shown and the closed flag), sync-connectivity (online and offline events) and submit-attempt.
 */

export type { SaveStatus } from './sync-state.ts';
export { backoffDelay, sleep } from './sync-retry.ts';

export type SyncOptions = {
  db: TakerDb;
  attemptId: string;
  token: string;
  /** The attempt's start (server clock): edit operations travel with their time since then. */
  startedAt?: string;
  /** Server clock minus this device's clock (from the last sync), to time edit operations. */
  clockOffsetMs?: number;
  /** Most edit operations one save carries; OPERATIONS_PER_SAVE_MAX unless a test says fewer. */
  operationsPerSave?: number;
  debounceMs?: number;
  eventDebounceMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  submitAttempts?: number;
  onStatus?: (status: SaveStatus) => void;
  onClosed?: (message: string) => void;
  /**
   * A kept file's upload is over: `answer` is what the question now holds ('File: {name}' from the
   * server), or '' with `error` when the server refused the file for good.
   */
  onUploadSettled?: (questionIndex: number, answer: string, error?: string) => void;
  /** An answer refused for its section (locked, not reached): kept on screen, not sent again. */
  onSectionRefused?: (questionIndex: number, message: string) => void;
  /** The largest file the server takes; a bigger one is refused before it is kept. */
  uploadMaxBytes?: number;
  isOnline?: () => boolean;
};

export type SyncEngine = {
  /**
   * Writes to IndexedDB at once, with the edit operations `edit` describes (none without it), and sends after
   * the debounce.
   */
  saveAnswer: (questionIndex: number, answer: string, edit?: AnswerEdit) => Promise<OutboxEntry>;
  /**
   * Keeps the file in IndexedDB, then uploads it (at once, and again after failures); returns the answer
   * to show, 'File: {name}'. Throws FileTooLargeError, keeping nothing, for a file over the limit.
   */
  saveFile: (questionIndex: number, file: File) => Promise<string>;
  /** Removes the answer file: drops a copy not sent yet and sends the question as unanswered. */
  removeFile: (questionIndex: number) => Promise<void>;
  /** Sends everything pending now; true when nothing is left to send. */
  flush: () => Promise<boolean>;
  logEvent: (event: ProctorEvent) => Promise<void>;
  /** Sends everything pending (answers and files first), then submits, until acknowledged or the retries run out. */
  submit: () => Promise<SubmitResponse>;
  /** Pushes whatever an earlier page left pending and follows the browser's online events. */
  start: () => void;
  /** Stops following the online events; pending work still goes out on flush(). */
  stopListening: () => void;
  /** Stops timers and listening; call after the last flush. */
  dispose: () => void;
  isClosed: () => boolean;
};

export function createSyncEngine(options: SyncOptions): SyncEngine {
  const { db, attemptId, token } = options;
  const startedAtMs = options.startedAt ? Date.parse(options.startedAt) : Date.now();
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const state = createSyncState({
    onStatus: options.onStatus,
    onClosed: options.onClosed,
    isOnline: options.isOnline ?? (() => navigator.onLine),
  });
  const retry = createRetryScheduler({
    baseDelayMs,
    maxDelayMs,
    run: () => void drain(),
    canRetry: () => !state.isStopped(),
  });
  const drain = createDrain(
    {
      db,
      attemptId,
      token,
      startedAtMs: Number.isNaN(startedAtMs) ? Date.now() : startedAtMs,
      operationsPerSave: options.operationsPerSave,
      isClosed: state.isClosed,
      close: state.close,
      noteFailure: (error) => {
        state.noteFailure(error);
        retry.fail();
      },
      onUploadSettled: options.onUploadSettled,
      onSectionRefused: options.onSectionRefused,
    },
    state,
    retry,
  );
  const writer = createOutboxWriter({
    db,
    attemptId,
    debounceMs: options.debounceMs ?? 400,
    eventDebounceMs: options.eventDebounceMs ?? 1000,
    uploadMaxBytes: options.uploadMaxBytes,
    clockOffsetMs: options.clockOffsetMs ?? 0,
    isStopped: state.isStopped,
    showBusy: state.showBusy,
    send: () => void drain(),
  });
  const connectivity = createConnectivityListener({
    onOnline: () => {
      retry.reset();
      state.networkBack();
      void drain();
    },
    onOffline: () => {
      if (state.status() !== 'saved') state.setStatus('offline');
    },
  });

  async function flush(): Promise<boolean> {
    await writer.settle();
    return drain();
  }

  const submit = () =>
    submitAttempt({
      attemptId,
      token,
      flush,
      attempts: options.submitAttempts ?? 6,
      baseDelayMs,
      maxDelayMs,
      onSubmitted: () => {
        state.markSubmitted();
        state.setStatus('saved');
      },
    });

  return {
    saveAnswer: writer.saveAnswer,
    saveFile: writer.saveFile,
    removeFile: writer.removeFile,
    flush,
    logEvent: writer.logEvent,
    submit,
    start() {
      connectivity.start(window);
      void drain();
    },
    stopListening: connectivity.stop,
    dispose() {
      state.dispose();
      writer.dispose();
      retry.cancel();
      connectivity.stop();
    },
    isClosed: state.isClosed,
  };
}
