import {
  DEFAULT_UPLOAD_MAX_BYTES,
  SubmitResponseSchema,
  UploadResponseSchema,
  type ProctorEvent,
  type SubmitResponse,
} from '@exam/domain/attempt';
import { ErrorCode } from '@exam/domain/errors';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import type { OutboxEntry, TakerDb } from '../../../lib/taker-db.ts';
import { enqueueEvent, listPending, markSynced, peekEvents, recordAnswer, removeEvents } from './outbox.ts';
import { fileAnswer, FileTooLargeError, listUploads, queueUpload, readBytes, settleUpload } from './uploads.ts';

/**
 * Moves the outbox (answers, answer files, proctoring events) to the server: debounced per question,
 * retried with exponential backoff, stopped for good once the server says the attempt is closed
 * (409 ATTEMPT_CLOSED). The page only talks to this.
 */

export type SaveStatus = 'saved' | 'saving' | 'offline';

export type SyncOptions = {
  db: TakerDb;
  attemptId: string;
  token: string;
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
  /** The largest file the server takes; a bigger one is refused before it is kept. */
  uploadMaxBytes?: number;
  isOnline?: () => boolean;
};

export type SyncEngine = {
  /** Writes to IndexedDB at once, sends after the debounce. */
  saveAnswer: (questionIndex: number, answer: string) => Promise<OutboxEntry>;
  /**
   * Keeps the file in IndexedDB, then uploads it (at once, and again after failures); returns the answer
   * to show, 'File: {name}'. Throws FileTooLargeError, keeping nothing, for a file over the limit.
   */
  saveFile: (questionIndex: number, file: File) => Promise<string>;
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

const EVENT_BATCH = 200;
/** Browsers cap keepalive bodies at 64 KiB; larger answers go without it and are retried if cut off. */
const KEEPALIVE_LIMIT = 60_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function backoffDelay(failures: number, baseMs: number, maxMs: number): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(exponential * (0.8 + Math.random() * 0.4));
}

export function createSyncEngine(options: SyncOptions): SyncEngine {
  const { db, attemptId, token } = options;
  const debounceMs = options.debounceMs ?? 400;
  const eventDebounceMs = options.eventDebounceMs ?? 1000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const submitAttempts = options.submitAttempts ?? 6;
  const isOnline = options.isOnline ?? (() => navigator.onLine);

  const debounces = new Map<number, ReturnType<typeof setTimeout>>();
  const writes = new Set<Promise<unknown>>();
  let eventTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let networkDown = false;
  let closed = false;
  let disposed = false;
  let listeningOn: Window | undefined;
  let status: SaveStatus = 'saved';
  let chain: Promise<boolean> = Promise.resolve(true);

  function setStatus(next: SaveStatus) {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  }

  const busyStatus = (): SaveStatus => (networkDown || !isOnline() ? 'offline' : 'saving');

  function close(message: string) {
    if (closed) return;
    closed = true;
    options.onClosed?.(message);
  }

  function scheduleRetry() {
    if (disposed || closed || retryTimer) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        void drain();
      },
      backoffDelay(failures, baseDelayMs, maxDelayMs),
    );
  }

  /** Returns 'retry' for failures worth repeating; anything else cannot succeed later. */
  function classify(error: unknown): 'retry' | 'closed' | 'drop' {
    if (!(error instanceof ApiError)) return 'retry';
    if (error.code === ErrorCode.ATTEMPT_CLOSED) return 'closed';
    return error.isRetryable ? 'retry' : 'drop';
  }

  function noteFailure(error: unknown) {
    failures += 1;
    networkDown = error instanceof ApiError ? error.isNetwork : true;
    setStatus(busyStatus());
    scheduleRetry();
  }

  /**
   * A failed answer or file send: a closed attempt is closed here and a retryable failure schedules the
   * queue's next try; 'drop' (the server will never take it) is left to the caller.
   */
  function onSendFailure(error: unknown): ReturnType<typeof classify> {
    const kind = classify(error);
    if (kind === 'closed') close(error instanceof ApiError ? error.userMessage : 'This attempt is closed.');
    if (kind === 'retry') noteFailure(error);
    return kind;
  }

  async function sendAnswersOnce(): Promise<boolean> {
    if (closed) return true;
    for (const entry of await listPending(db, attemptId)) {
      const body = { answer: entry.answer, seq: entry.seq };
      try {
        await apiRequest(api.answer(attemptId, entry.questionIndex), {
          method: 'PUT',
          token,
          body,
          keepalive: entry.answer.length < KEEPALIVE_LIMIT,
        });
        await markSynced(db, attemptId, entry.questionIndex, entry.seq);
      } catch (error) {
        const kind = onSendFailure(error);
        if (kind === 'closed') return true;
        if (kind === 'retry') return false;
        // A request the server will never accept (bad input, lost rights): retrying cannot help.
        console.error('Answer rejected by the server', entry.questionIndex, error);
        await markSynced(db, attemptId, entry.questionIndex, entry.seq);
      }
    }
    return true;
  }

  async function sendUploadsOnce(): Promise<boolean> {
    for (const upload of await listUploads(db, attemptId)) {
      if (closed) return true;
      try {
        const body = new FormData();
        body.append('file', new Blob([upload.bytes], { type: upload.mimeType }), upload.fileName);
        const stored = await apiRequest(api.file(attemptId, upload.questionIndex), {
          method: 'POST',
          token,
          body,
          schema: UploadResponseSchema,
        });
        if (await settleUpload(db, upload, stored.answer))
          options.onUploadSettled?.(upload.questionIndex, stored.answer);
      } catch (error) {
        const kind = onSendFailure(error);
        if (kind === 'closed') return true;
        if (kind === 'retry') return false;
        // Refused for good (too large for the server, not a file question): the candidate must choose again.
        console.error('Answer file rejected by the server', upload.questionIndex, error);
        const message = error instanceof ApiError ? error.userMessage : 'The file could not be uploaded.';
        if (await settleUpload(db, upload, '')) options.onUploadSettled?.(upload.questionIndex, '', message);
      }
    }
    return true;
  }

  const pendingCount = async () =>
    (await listPending(db, attemptId)).length + (await listUploads(db, attemptId)).length;

  async function sendEventsOnce(): Promise<boolean> {
    for (;;) {
      if (closed) return true;
      const batch = await peekEvents(db, attemptId, EVENT_BATCH);
      if (batch.length === 0) return true;
      try {
        await apiRequest(api.events(attemptId), {
          method: 'POST',
          token,
          body: { events: batch.map((row) => row.event) },
        });
      } catch (error) {
        const kind = classify(error);
        if (kind === 'retry') {
          noteFailure(error);
          return false;
        }
        console.error('Proctoring events rejected by the server', error);
      }
      await removeEvents(
        db,
        batch.map((row) => row.id),
      );
    }
  }

  async function drainOnce(): Promise<boolean> {
    const answersDone = await sendAnswersOnce();
    const uploadsDone = answersDone ? await sendUploadsOnce() : false;
    const eventsDone = uploadsDone ? await sendEventsOnce() : false;
    const done = answersDone && uploadsDone && eventsDone;
    if (done) {
      failures = 0;
      networkDown = false;
      const left = closed ? 0 : await pendingCount();
      setStatus(left === 0 ? 'saved' : busyStatus());
    }
    return done;
  }

  function drain(): Promise<boolean> {
    chain = chain.then(drainOnce, drainOnce);
    return chain;
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    writes.add(promise);
    void promise.finally(() => writes.delete(promise)).catch(() => undefined);
    return promise;
  }

  async function saveAnswer(questionIndex: number, answer: string): Promise<OutboxEntry> {
    const entry = await track(recordAnswer(db, attemptId, questionIndex, answer));
    if (closed || disposed) return entry;
    setStatus(busyStatus());
    clearTimeout(debounces.get(questionIndex));
    debounces.set(
      questionIndex,
      setTimeout(() => {
        debounces.delete(questionIndex);
        void drain();
      }, debounceMs),
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
    if (!closed && !disposed) {
      setStatus(busyStatus());
      void drain();
    }
    return fileAnswer(upload.fileName);
  }

  async function logEvent(event: ProctorEvent): Promise<void> {
    await track(enqueueEvent(db, attemptId, { clientAt: new Date().toISOString(), ...event }));
    if (closed || disposed || eventTimer) return;
    eventTimer = setTimeout(() => {
      eventTimer = undefined;
      void drain();
    }, eventDebounceMs);
  }

  async function flush(): Promise<boolean> {
    for (const timer of debounces.values()) clearTimeout(timer);
    debounces.clear();
    await Promise.allSettled([...writes]);
    return drain();
  }

  /**
   * The submit is sent only once nothing is pending, so the result holds every answer and file this
   * device kept; while something cannot be sent it counts as a failed try. After the last try the
   * error goes to the page and everything stays kept for the next one.
   */
  async function submit(): Promise<SubmitResponse> {
    for (let attempt = 1; ; attempt += 1) {
      let failure: unknown;
      if (await flush()) {
        try {
          const result = await apiRequest(api.submit(attemptId), {
            method: 'POST',
            token,
            schema: SubmitResponseSchema,
          });
          closed = true;
          setStatus('saved');
          return result;
        } catch (error) {
          if (error instanceof ApiError && !error.isRetryable) throw error;
          failure = error;
        }
      } else {
        failure = new Error('Answers or files kept on this device could not be sent yet');
      }
      if (attempt >= submitAttempts) throw failure;
      await sleep(backoffDelay(attempt, baseDelayMs, maxDelayMs));
    }
  }

  function onOnline() {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    failures = 0;
    networkDown = false;
    void drain();
  }

  function onOffline() {
    if (status !== 'saved') setStatus('offline');
  }

  function stopListening() {
    listeningOn?.removeEventListener('online', onOnline);
    listeningOn?.removeEventListener('offline', onOffline);
    listeningOn = undefined;
  }

  return {
    saveAnswer,
    saveFile,
    flush,
    logEvent,
    submit,
    start() {
      listeningOn = window;
      listeningOn.addEventListener('online', onOnline);
      listeningOn.addEventListener('offline', onOffline);
      void drain();
    },
    stopListening,
    dispose() {
      disposed = true;
      for (const timer of debounces.values()) clearTimeout(timer);
      debounces.clear();
      clearTimeout(eventTimer);
      clearTimeout(retryTimer);
      stopListening();
    },
    isClosed: () => closed,
  };
}
