import { ApiError } from '../../../lib/api-client.ts';
import { saveFollowUpAnswer, type AttemptCredentials } from '../api/follow-up.ts';
import { forgetDraft, keepDraft, type FollowUpDraft } from './follow-up-drafts.ts';
import { createConnectivityListener } from './sync-connectivity.ts';
import { createRetryScheduler } from './sync-retry.ts';
import type { SaveStatus } from './sync-state.ts';

/**
 * Saves one follow-up answer as it is typed, the way the exam's answers are saved (features/exam/lib/sync.ts):
 * each edit gets the next seq and is kept on this device at once, a pause in typing sends the latest text, a
 * failure is retried with backoff (at once when the connection returns), and the device's copy is dropped once
 * the server acknowledges its seq. A 409 means the question closed (its time ran out): nothing more is sent.
 */
export type FollowUpSaver = ReturnType<typeof createFollowUpSaver>;

export function createFollowUpSaver(options: {
  attempt: AttemptCredentials;
  n: number;
  /** Where the page starts: the server's draft, or this device's newer one (`pending`). */
  initial: FollowUpDraft & { pending: boolean };
  /** The seq the server holds. */
  serverSeq: number;
  debounceMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  onStatus: (status: SaveStatus) => void;
  onClosed: () => void;
}) {
  const { attempt, n } = options;
  let answer = options.initial.answer;
  let seq = options.initial.seq;
  let acked = options.serverSeq;
  let closed = false;
  /** Between start() and dispose(): a page that left schedules no retries. */
  let active = false;
  let inFlight: Promise<boolean> | null = null;
  let debounce: ReturnType<typeof setTimeout> | undefined;

  const retry = createRetryScheduler({
    baseDelayMs: options.baseDelayMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 15_000,
    run: () => void send(),
    canRetry: () => !closed && active,
  });
  const connectivity = createConnectivityListener({
    onOnline: () => {
      retry.reset();
      void send();
    },
    onOffline: () => {
      if (acked < seq) options.onStatus('offline');
    },
  });

  async function sendOnce(): Promise<boolean> {
    const sent = { answer, seq };
    try {
      const saved = await saveFollowUpAnswer(attempt, n, sent);
      retry.succeed();
      // A 200 acknowledges what was sent. A later seq from another tab or device would make this page's text
      // stale on the server: the text on screen is what the candidate sees, so it goes out again above it.
      acked = Math.max(acked, sent.seq);
      if (saved.seq > sent.seq && saved.seq >= seq) {
        seq = saved.seq + 1;
        keepDraft(attempt.attemptId, n, { answer, seq });
      }
      forgetDraft(attempt.attemptId, n, acked);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // Closed: the server keeps the draft it had at the deadline, and will take nothing more.
        close();
        forgetDraft(attempt.attemptId, n);
        options.onClosed();
        return false;
      }
      options.onStatus('offline');
      if (!(error instanceof ApiError) || error.isRetryable) retry.fail();
      else console.error('A follow-up draft was refused', error);
      return false;
    }
  }

  /** Sends the latest text until the server holds it; false when a try failed (a retry is scheduled) or it closed. */
  async function send(): Promise<boolean> {
    clearTimeout(debounce);
    while (!closed && acked < seq) {
      inFlight ??= sendOnce().finally(() => {
        inFlight = null;
      });
      if (!(await inFlight)) return false;
    }
    if (closed) return false;
    options.onStatus('saved');
    return true;
  }

  function close() {
    closed = true;
    clearTimeout(debounce);
    retry.reset();
    connectivity.stop();
  }

  return {
    start() {
      active = true;
      connectivity.start(window);
      if (!closed && acked < seq) {
        options.onStatus('saving');
        void send();
      }
    },
    /** A keystroke: kept on this device at once, sent after a pause in typing. */
    change(text: string) {
      if (closed) return;
      answer = text;
      seq += 1;
      keepDraft(attempt.attemptId, n, { answer, seq });
      options.onStatus('saving');
      clearTimeout(debounce);
      debounce = setTimeout(() => void send(), options.debounceMs ?? 800);
    },
    /** Sends what is pending now (the time ran out); resolves true once the server holds it. */
    flush: send,
    /** The answer was submitted (or the question closed): nothing more goes out and the device's copy goes. */
    finish() {
      close();
      forgetDraft(attempt.attemptId, n);
    },
    /** The page leaves: timers stop, and a draft not yet acknowledged stays on this device. */
    dispose() {
      active = false;
      clearTimeout(debounce);
      retry.reset();
      connectivity.stop();
    },
    text: () => answer,
  };
}
