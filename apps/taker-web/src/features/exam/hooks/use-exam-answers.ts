import { useCallback, useEffect, useRef, useState } from 'react';
import type { StoredAttempt, TakerDb } from '../../../lib/taker-db.ts';
import { recordSyncedAnswer } from '../lib/outbox.ts';
import type { SyncEngine } from '../lib/sync.ts';

/**
 * The answers on screen. Each change goes to the outbox (IndexedDB first, then the server); in a
 * preview nothing is stored anywhere (spec section 6).
 */
export function useExamAnswers(initial: Map<number, string>, engine: SyncEngine | null, db: TakerDb | null, attempt: StoredAttempt | null) {
  const [answers, setAnswers] = useState(() => new Map(initial));
  const engineRef = useRef(engine);
  useEffect(() => {
    engineRef.current = engine;
  }, [engine]);

  const put = (index: number, value: string) =>
    setAnswers((current) => {
      const next = new Map(current);
      next.set(index, value);
      return next;
    });

  const setAnswer = useCallback((index: number, value: string) => {
    put(index, value);
    engineRef.current?.saveAnswer(index, value).catch((error: unknown) => console.error('Could not keep the answer on this device', error));
  }, []);

  const setStoredAnswer = useCallback(
    (index: number, value: string) => {
      put(index, value);
      if (db && attempt) void recordSyncedAnswer(db, attempt.attemptId, index, value);
    },
    [db, attempt],
  );

  const commit = useCallback(() => void engineRef.current?.flush(), []);
  const answered = [...answers.values()].filter((value) => value.trim() !== '').length;

  return { answers, answered, setAnswer, setStoredAnswer, commit };
}
