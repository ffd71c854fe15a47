import { useEffect, useRef, useState } from 'react';
import type { StoredAttempt, TakerDb } from '../../../lib/taker-db.ts';
import { createSyncEngine, type SaveStatus, type SyncEngine, type SyncOptions } from '../lib/sync.ts';

type EngineCallbacks = Required<Pick<SyncOptions, 'onClosed' | 'onUploadSettled' | 'onSectionRefused'>>;

/** One sync engine per attempt, flushed whenever the page may be going away (tab hidden, pagehide). */
export function useSyncEngine(db: TakerDb | null, attempt: StoredAttempt | null, callbacks: EngineCallbacks) {
  const [engine, setEngine] = useState<SyncEngine | null>(null);
  const [status, setStatus] = useState<SaveStatus>(() =>
    typeof navigator !== 'undefined' && !navigator.onLine ? 'offline' : 'saved',
  );
  const callbacksRef = useRef(callbacks);
  useEffect(() => {
    callbacksRef.current = callbacks;
  }, [callbacks]);
  const attemptId = attempt?.attemptId;
  const token = attempt?.token;
  const uploadMaxBytes = attempt?.uploadMaxBytes;
  const startedAt = attempt?.startedAt;
  const clockOffsetMs = attempt?.clockOffsetMs;

  useEffect(() => {
    if (!db || !attemptId || !token) return;
    const next = createSyncEngine({
      db,
      attemptId,
      token,
      uploadMaxBytes,
      startedAt,
      clockOffsetMs,
      onStatus: setStatus,
      onClosed: (message) => callbacksRef.current.onClosed(message),
      onUploadSettled: (questionIndex, answer, error) =>
        callbacksRef.current.onUploadSettled(questionIndex, answer, error),
      onSectionRefused: (questionIndex, message) => callbacksRef.current.onSectionRefused(questionIndex, message),
    });
    next.start();
    setEngine(next);
    const flush = () => void next.flush();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', flush);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', flush);
      // Listeners go now, while the page is still there; the last flush may finish after it is gone.
      next.stopListening();
      void next
        .flush()
        .catch((error: unknown) =>
          console.error('Could not send what this page kept before leaving; it stays on this device', error),
        )
        .finally(() => next.dispose());
    };
  }, [db, attemptId, token, uploadMaxBytes, startedAt, clockOffsetMs]);

  return { engine, status };
}
