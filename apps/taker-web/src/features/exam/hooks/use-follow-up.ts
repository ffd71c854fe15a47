import type { FollowUpState } from '@exam/domain/follow-up';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { findStoredAttempt, getTakerDb } from '../../../lib/taker-db.ts';
import { getFollowUp, startFollowUp, type AttemptCredentials, type TimedFollowUpState } from '../api/follow-up.ts';
import { sleep } from '../lib/sync-retry.ts';

export type FollowUpView =
  | { kind: 'preparing' }
  /** start or a read of the state failed: the exam stays submitted; the candidate tries again. */
  | { kind: 'failed'; reason: 'start' | 'load' }
  | { kind: 'asking'; attempt: AttemptCredentials; state: FollowUpState; clockOffsetMs: number }
  /** Done, skipped (with the server's note) or off: the completion page follows. */
  | { kind: 'finished'; status: 'done' | 'skipped' | 'off'; note: string | null };

/** After a question's deadline the server closes it on the next read; a clock a little behind is read again. */
const CLOSE_READS = 8;
const CLOSE_READ_DELAY_MS = 1000;

function viewOf(attempt: AttemptCredentials, { state, clockOffsetMs }: TimedFollowUpState): FollowUpView {
  if (state.status === 'asking' && state.current) return { kind: 'asking', attempt, state, clockOffsetMs };
  if (state.status === 'done' || state.status === 'skipped' || state.status === 'off')
    return { kind: 'finished', status: state.status, note: state.note };
  return { kind: 'failed', reason: 'start' };
}

/**
 * The follow-up room's flow (docs/product.md "Follow-up questions"): reads the state with the attempt this browser
 * holds, asks for the questions when they are pending (start may take half a minute), then follows the server from
 * question to question. Without an attempt on this device the exam page decides where the candidate belongs.
 */
export function useFollowUp(examId: string) {
  const navigate = useNavigate();
  const [view, setView] = useState<FollowUpView>({ kind: 'preparing' });
  const [timeUp, setTimeUp] = useState(false);
  const attemptRef = useRef<AttemptCredentials | null>(null);
  const retryRef = useRef<() => void>(() => undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const show = useCallback((next: FollowUpView) => {
    if (mounted.current) setView(next);
  }, []);

  const opening = useRef(false);
  const open = useCallback(async () => {
    // Once at a time (React's development double effects, a double click on Try again): start generates questions.
    if (opening.current) return;
    opening.current = true;
    show({ kind: 'preparing' });
    let attempt = attemptRef.current;
    try {
      if (!attempt) {
        const stored = await findStoredAttempt(await getTakerDb(), examId);
        if (!stored) return void navigate(paths.exam(examId), { replace: true });
        attempt = attemptRef.current = { attemptId: stored.attemptId, token: stored.token };
      }
      let read = await getFollowUp(attempt);
      if (read.state.status === 'pending') read = await startFollowUp(attempt);
      show(viewOf(attempt, read));
    } catch (error) {
      console.error('The follow-up questions could not be prepared', error);
      retryRef.current = () => void open();
      show({ kind: 'failed', reason: 'start' });
    } finally {
      opening.current = false;
    }
  }, [examId, navigate, show]);

  useEffect(() => {
    void open();
  }, [open]);

  /** The next question after an answer was submitted. */
  const answered = useCallback(
    (next: TimedFollowUpState) => {
      setTimeUp(false);
      if (attemptRef.current) show(viewOf(attemptRef.current, next));
    },
    [show],
  );

  /** Question `n` ran out of time: the server closes it when read, and answers the next question or done. */
  const expired = useCallback(
    async (n: number) => {
      const attempt = attemptRef.current;
      if (!attempt) return;
      setTimeUp(true);
      try {
        for (let read = 1; ; read += 1) {
          const next = await getFollowUp(attempt);
          const stillOpen = next.state.status === 'asking' && next.state.current?.n === n;
          if (!stillOpen) return show(viewOf(attempt, next));
          if (read >= CLOSE_READS) throw new Error(`Follow-up question ${n} is still open after its deadline`);
          await sleep(CLOSE_READ_DELAY_MS);
        }
      } catch (error) {
        console.error('The follow-up state could not be read', error);
        retryRef.current = () => void expired(n);
        show({ kind: 'failed', reason: 'load' });
      }
    },
    [show],
  );

  return { view, timeUp, answered, expired, retry: () => retryRef.current() };
}
