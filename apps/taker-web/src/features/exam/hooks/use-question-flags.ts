import { useCallback, useEffect, useRef, useState } from 'react';
import { findQuestionFlags, saveQuestionFlags, type TakerDb } from '../../../lib/taker-db.ts';

const flipped = (set: ReadonlySet<number>, index: number) => {
  const next = new Set(set);
  if (!next.delete(index)) next.add(index);
  return next;
};

/**
 * The questions the candidate marked for review. They live in IndexedDB per attempt, so a reload keeps
 * them; a preview (no attempt) keeps them only in memory. A mark made before the stored ones have loaded
 * is applied on top of them rather than lost.
 */
export function useQuestionFlags(db: TakerDb | null, attemptId: string | null) {
  const [flagged, setFlagged] = useState<ReadonlySet<number>>(() => new Set());
  const loaded = useRef(false);
  const early = useRef<number[]>([]);

  useEffect(() => {
    loaded.current = false;
    early.current = [];
    if (!db || !attemptId) {
      loaded.current = true;
      return;
    }
    let cancelled = false;
    findQuestionFlags(db, attemptId)
      .then((stored) => {
        if (cancelled) return;
        let next: ReadonlySet<number> = new Set(stored);
        for (const index of early.current) next = flipped(next, index);
        loaded.current = true;
        setFlagged(next);
        if (early.current.length > 0) void saveQuestionFlags(db, attemptId, [...next]);
        early.current = [];
      })
      .catch((error: unknown) => {
        loaded.current = true;
        console.error('Could not read the questions marked for review', error);
      });
    return () => {
      cancelled = true;
    };
  }, [db, attemptId]);

  const current = useRef(flagged);
  useEffect(() => {
    current.current = flagged;
  }, [flagged]);

  const toggle = useCallback(
    (index: number) => {
      const next = flipped(current.current, index);
      current.current = next;
      setFlagged(next);
      if (!db || !attemptId) return;
      if (!loaded.current) {
        early.current.push(index);
        return;
      }
      saveQuestionFlags(db, attemptId, [...next]).catch((error: unknown) =>
        console.error('Could not keep the mark for review on this device', error),
      );
    },
    [db, attemptId],
  );

  return { flagged, toggle };
}
