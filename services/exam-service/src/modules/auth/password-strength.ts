import { Worker } from 'node:worker_threads';

/**
 * zxcvbn scores only this many leading characters. Its pattern search grows steeply with length (a 64-character
 * repeated pattern took about two seconds on this project's shared machines, a normal password 50–200 ms, and
 * loading the dictionaries about 1.6 s), and a prefix strong enough is a password strong enough; a long password
 * with a weak start is refused with the reason, which is the safe side.
 */
export const SCORED_PREFIX_LENGTH = 64;

/**
 * How many l33t substitution variants zxcvbn tries per password (its default is 100). The variants multiply with
 * every substitutable character ('@', '$', '3', '.', …), which made an e-mail address as password take 4.6 s on a
 * busy machine; at 10 it took 0.43 s with the same score, and the usual substitutions (P@ssw0rd) are still found.
 */
export const L33T_MAX_SUBSTITUTIONS = 10;

export type StrengthRequest = { id: number; password: string; userInputs: string[] };
export type StrengthVerdict = { id: number; score: number; warning: string | null; suggestions: string[] };
/** The worker's first message: its dictionaries are loaded. */
export type StrengthReady = { ready: true };
export type Strength = Omit<StrengthVerdict, 'id'>;

/** The check took longer than its limit: the password is refused as if weak (its feedback says why). */
export class StrengthTimeoutError extends Error {}

type Pending = {
  request: StrengthRequest;
  resolve: (strength: Strength) => void;
  reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
};

/**
 * zxcvbn's full scoring (dictionaries, l33t, keyboard, repeats, dates, the user's own words) in one worker thread,
 * started on the first check, so a slow check never stalls other requests. A check's time limit starts once the
 * worker has loaded its dictionaries; past it the worker is ended (the next one starts fresh), the check is answered
 * with StrengthTimeoutError and the checks queued behind it are sent to the new worker.
 */
export function createPasswordStrength(opts: { timeoutMs: number }) {
  let worker: Worker | undefined;
  let ready = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const arm = (job: Pending) => {
    clearTimeout(job.timer);
    job.timer = setTimeout(() => onTimeout(job.request.id), opts.timeoutMs);
  };

  const start = (): Worker => {
    const started = new Worker(new URL('./password-strength.worker.ts', import.meta.url));
    ready = false;
    started.unref();
    started.on('message', (message: StrengthVerdict | StrengthReady) => {
      if (worker !== started) return;
      if ('ready' in message) {
        ready = true;
        for (const job of pending.values()) arm(job);
        return;
      }
      const job = pending.get(message.id);
      if (!job) return;
      pending.delete(message.id);
      clearTimeout(job.timer);
      job.resolve({ score: message.score, warning: message.warning, suggestions: message.suggestions });
    });
    started.on('error', (err) => {
      if (worker !== started) return;
      worker = undefined;
      for (const [id, job] of pending) {
        pending.delete(id);
        clearTimeout(job.timer);
        job.reject(err);
      }
    });
    return started;
  };

  const send = (job: Pending) => {
    if (!worker) worker = start();
    else if (ready) arm(job);
    worker.postMessage(job.request);
  };

  function onTimeout(id: number) {
    const job = pending.get(id);
    if (!job) return;
    pending.delete(id);
    job.reject(new StrengthTimeoutError(`password strength check took over ${opts.timeoutMs} ms`));
    const stuck = worker;
    worker = undefined;
    void stuck?.terminate();
    for (const other of pending.values()) {
      clearTimeout(other.timer);
      send(other);
    }
  }

  return {
    /** Scores the password (0–4) against zxcvbn's dictionaries and the user's own words (e-mail and its parts). */
    check(password: string, userInputs: string[]): Promise<Strength> {
      return new Promise<Strength>((resolve, reject) => {
        const job: Pending = { request: { id: nextId++, password, userInputs }, resolve, reject };
        pending.set(job.request.id, job);
        send(job);
      });
    },
    async close(): Promise<void> {
      for (const job of pending.values()) {
        clearTimeout(job.timer);
        job.reject(new Error('the password strength checker was closed'));
      }
      pending.clear();
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}
export type PasswordStrength = ReturnType<typeof createPasswordStrength>;
