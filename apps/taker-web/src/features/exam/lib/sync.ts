import { SubmitResponseSchema, type ProctorEvent, type SubmitResponse } from '@exam/domain/attempt';
import { ErrorCode } from '@exam/domain/errors';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import type { OutboxEntry, TakerDb } from '../../../lib/taker-db.ts';
import { enqueueEvent, listPending, markSynced, peekEvents, recordAnswer, removeEvents } from './outbox.ts';

/**
 * Moves the outbox to the server: debounced per question, retried with exponential backoff, stopped for
 * good once the server says the attempt is closed (409 ATTEMPT_CLOSED). The page only talks to this.
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
  isOnline?: () => boolean;
};

export type SyncEngine = {
  /** Writes to IndexedDB at once, sends after the debounce. */
  saveAnswer: (questionIndex: number, answer: string) => Promise<OutboxEntry>;
  /** Sends everything pending now; true when nothing is left to send. */
  flush: () => Promise<boolean>;
  logEvent: (event: ProctorEvent) => Promise<void>;
  /** Flushes, then submits until the server acknowledges or the retries run out. */
  submit: () => Promise<SubmitResponse>;
  /** Pushes whatever an earlier page left pending and follows the browser's online events. */
  start: () => void;
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
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void drain();
    }, backoffDelay(failures, baseDelayMs, maxDelayMs));
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

  async function sendAnswersOnce(): Promise<boolean> {
    if (closed) return true;
    for (const entry of await listPending(db, attemptId)) {
      const body = { answer: entry.answer, seq: entry.seq };
      try {
        await apiRequest(api.answer(attemptId, entry.questionIndex), { method: 'PUT', token, body, keepalive: entry.answer.length < KEEPALIVE_LIMIT });
        await markSynced(db, attemptId, entry.questionIndex, entry.seq);
      } catch (error) {
        const kind = classify(error);
        if (kind === 'closed') {
          close(error instanceof ApiError ? error.userMessage : 'This attempt is closed.');
          return true;
        }
        if (kind === 'retry') {
          noteFailure(error);
          return false;
        }
        // A request the server will never accept (bad input, lost rights): retrying cannot help.
        console.error('Answer rejected by the server', entry.questionIndex, error);
        await markSynced(db, attemptId, entry.questionIndex, entry.seq);
      }
    }
    return true;
  }

  async function sendEventsOnce(): Promise<boolean> {
    for (;;) {
      if (closed) return true;
      const batch = await peekEvents(db, attemptId, EVENT_BATCH);
      if (batch.length === 0) return true;
      try {
        await apiRequest(api.events(attemptId), { method: 'POST', token, body: { events: batch.map((row) => row.event) } });
      } catch (error) {
        const kind = classify(error);
        if (kind === 'retry') {
          noteFailure(error);
          return false;
        }
        console.error('Proctoring events rejected by the server', error);
      }
      await removeEvents(db, batch.map((row) => row.id));
    }
  }

  async function drainOnce(): Promise<boolean> {
    const answersDone = await sendAnswersOnce();
    const eventsDone = answersDone ? await sendEventsOnce() : false;
    const done = answersDone && eventsDone;
    if (done) {
      failures = 0;
      networkDown = false;
      const left = closed ? [] : await listPending(db, attemptId);
      setStatus(left.length === 0 ? 'saved' : busyStatus());
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

  async function submit(): Promise<SubmitResponse> {
    for (let attempt = 1; ; attempt += 1) {
      await flush();
      try {
        const result = await apiRequest(api.submit(attemptId), { method: 'POST', token, schema: SubmitResponseSchema });
        closed = true;
        setStatus('saved');
        return result;
      } catch (error) {
        const retryable = !(error instanceof ApiError) || error.isRetryable;
        if (!retryable || attempt >= submitAttempts) throw error;
        await sleep(backoffDelay(attempt, baseDelayMs, maxDelayMs));
      }
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

  return {
    saveAnswer,
    flush,
    logEvent,
    submit,
    start() {
      window.addEventListener('online', onOnline);
      window.addEventListener('offline', onOffline);
      void drain();
    },
    dispose() {
      disposed = true;
      for (const timer of debounces.values()) clearTimeout(timer);
      debounces.clear();
      clearTimeout(eventTimer);
      clearTimeout(retryTimer);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    },
    isClosed: () => closed,
  };
}
