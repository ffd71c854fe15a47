import { useEffect, useRef, useState } from 'react';
import type { StoredAttempt, TakerDb } from '../../../lib/taker-db.ts';
import { createSyncEngine, type SaveStatus, type SyncEngine } from '../lib/sync.ts';

/** One sync engine per attempt, flushed whenever the page may be going away (tab hidden, pagehide). */
export function useSyncEngine(db: TakerDb | null, attempt: StoredAttempt | null, onClosed: (message: string) => void) {
  const [engine, setEngine] = useState<SyncEngine | null>(null);
  const [status, setStatus] = useState<SaveStatus>(() => (typeof navigator !== 'undefined' && !navigator.onLine ? 'offline' : 'saved'));
  const closedRef = useRef(onClosed);
  useEffect(() => {
    closedRef.current = onClosed;
  }, [onClosed]);
  const attemptId = attempt?.attemptId;
  const token = attempt?.token;

  useEffect(() => {
    if (!db || !attemptId || !token) return;
    const next = createSyncEngine({ db, attemptId, token, onStatus: setStatus, onClosed: (message) => closedRef.current(message) });
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
      void next.flush().finally(() => next.dispose());
    };
  }, [db, attemptId, token]);

  return { engine, status };
}
