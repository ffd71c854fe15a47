import { LIVE_POLL_MS, readCandidateLive } from '@exam/domain/candidate-views';
import type { Announcement } from '@exam/domain/live';
import { toast } from '@exam/ui/toaster';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { i18n } from '../../../i18n/index.ts';

const dismissedKey = (attemptId: string) => `exam.announcements.dismissed.${attemptId}`;

function readDismissed(attemptId: string): Set<string> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(dismissedKey(attemptId)) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

export type LiveAttempt = {
  /** The exam's announcements since the attempt started that the candidate has not dismissed, oldest first. */
  announcements: Announcement[];
  dismiss: (id: string) => void;
  /** The server's current deadline: the page's until a poll says otherwise (an extension shows here). */
  deadline: string | null;
};

/** The same announcements as before: keep the old array, so a poll that brings nothing new renders nothing. */
const sameList = (a: Announcement[], b: Announcement[]) =>
  a.length === b.length && a.every((item, i) => item.id === b[i]?.id && item.text === b[i]?.text);

/**
 * Polls GET /api/attempts/{id}/live every LIVE_POLL_MS while the attempt is open (docs/product.md#the-live-proctor-view):
 * new announcements are listed and toasted, a changed deadline is handed to the countdown, and once the
 * examiner ended the attempt (or it was submitted elsewhere) `onFinished` runs, with the examiner's ending
 * flagged, and polling stops. A failed poll is tried again at the next interval; a refused token stops it.
 */
export function useLiveAttempt(options: {
  attempt: { attemptId: string; token: string } | null;
  /** The deadline the page loaded with. */
  deadline: string | null;
  onFinished: (endedByExaminer: boolean) => void;
}): LiveAttempt {
  const attemptId = options.attempt?.attemptId;
  const token = options.attempt?.token;
  const [all, setAll] = useState<Announcement[]>([]);
  const [dismissed, setDismissed] = useState<Set<string>>(() => (attemptId ? readDismissed(attemptId) : new Set()));
  const [deadline, setDeadline] = useState<string | null>(options.deadline);
  const finishedRef = useRef(options.onFinished);
  useEffect(() => {
    finishedRef.current = options.onFinished;
  }, [options.onFinished]);

  useEffect(() => {
    if (!attemptId || !token) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    // Announcements already made when the page opened are listed, not toasted.
    let known: Set<string> | null = null;
    const poll = async () => {
      try {
        const live = readCandidateLive(
          await apiRequest(api.attemptLive(attemptId), { token, signal: controller.signal }),
        );
        if (stopped) return;
        if (known) {
          for (const a of live.announcements)
            if (!known.has(a.id)) toast.info(i18n.t('exam:announcements.toast', { text: a.text }));
        }
        known = new Set(live.announcements.map((a) => a.id));
        setAll((current) => (sameList(current, live.announcements) ? current : live.announcements));
        setDeadline(live.deadline);
        if (live.endedAt || live.submittedAt) {
          stopped = true;
          finishedRef.current(live.endedAt !== null);
          return;
        }
      } catch (error) {
        if (stopped) return;
        // The token or the attempt is gone for good: the page's own paths (saves, submit) take it from here.
        if (error instanceof ApiError && !error.isRetryable) return;
      }
      timer = setTimeout(() => void poll(), LIVE_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      controller.abort();
      clearTimeout(timer);
    };
  }, [attemptId, token]);

  const dismiss = useCallback(
    (id: string) => {
      setDismissed((current) => {
        const next = new Set(current).add(id);
        if (attemptId) sessionStorage.setItem(dismissedKey(attemptId), JSON.stringify([...next]));
        return next;
      });
    },
    [attemptId],
  );

  return { announcements: all.filter((a) => !dismissed.has(a.id)), dismiss, deadline };
}
