import type { FollowUpCurrent } from '@exam/domain/follow-up';
import { useEffect, useRef, useState } from 'react';
import type { AttemptCredentials } from '../api/follow-up.ts';
import { initialDraft } from '../lib/follow-up-drafts.ts';
import { createFollowUpSaver, type FollowUpSaver } from '../lib/follow-up-saver.ts';
import type { SaveStatus } from '../lib/sync-state.ts';

/**
 * The text of one follow-up question on screen, with its saver (lib/follow-up-saver.ts). A draft this device
 * kept from before a reload, newer than the server's, is shown and sent again. Mount it once per question.
 */
export function useFollowUpDraft(attempt: AttemptCredentials, current: FollowUpCurrent, onClosed: () => void) {
  const [start] = useState(() =>
    initialDraft(attempt.attemptId, current.n, { answer: current.answer, seq: current.seq }),
  );
  const [text, setText] = useState(start.answer);
  const [status, setStatus] = useState<SaveStatus>(start.pending ? 'saving' : 'saved');
  const closedRef = useRef(onClosed);
  useEffect(() => {
    closedRef.current = onClosed;
  }, [onClosed]);

  const [saver] = useState<FollowUpSaver>(() =>
    createFollowUpSaver({
      attempt,
      n: current.n,
      initial: start,
      serverSeq: current.seq,
      onStatus: setStatus,
      onClosed: () => closedRef.current(),
    }),
  );
  useEffect(() => {
    saver.start();
    return () => saver.dispose();
  }, [saver]);

  return {
    text,
    status,
    change(value: string) {
      setText(value);
      saver.change(value);
    },
    flush: saver.flush,
    finish: saver.finish,
  };
}
