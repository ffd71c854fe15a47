import type { Session } from '@exam/domain/workspace';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  createSession,
  endSessionOnPageClose,
  findSession,
  launchEditor,
  renewEditorAccess,
} from '../api/manage-workspace-session.ts';
import {
  CONNECTING_MS,
  CREATE_TIMEOUT_MS,
  isRetryable,
  RENEW_ACCESS_MS,
  STATUS_POLL_MS,
  STORAGE_POLL_MS,
  WorkspaceStoppedError,
} from '../lib/workspace-session.ts';
import { useRetryBackoff } from './use-retry-backoff.ts';

/**
 * The panel's states: creating the session, waiting for the editor, connected, or failed. Why it failed is
 * for the creator (the orchestrator records it with the attempt), not the candidate; `retryable` says whether
 * trying again later may help.
 */
export type WorkspaceView =
  | { state: 'initializing' }
  | { state: 'creating' }
  | { state: 'connecting'; session: Session; editorUrl: string }
  | { state: 'connected'; session: Session; editorUrl: string }
  | { state: 'failed'; retryable: boolean };
export type WorkspaceState = WorkspaceView['state'];

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Creates (or reuses) the attempt's session and waits while the orchestrator still reports it 'starting'. */
async function startSession(token: string, examId: string, signal: AbortSignal) {
  let session = await createSession(token, examId, signal);
  while (session.status === 'starting') {
    await sleep(STATUS_POLL_MS, signal);
    const current = await findSession(token, session.sessionId, signal);
    if (!current) throw new WorkspaceStoppedError();
    session = current;
  }
  if (session.status !== 'ready') throw new WorkspaceStoppedError();
  return { session, editorUrl: await launchEditor(token, session.sessionId, signal) };
}

type Options = { token: string | null; examId: string; enabled: boolean };
type LiveSession = { sessionId: string; token: string } | null;
type SetView = (view: WorkspaceView) => void;

function failedView(error: unknown): WorkspaceView {
  // The browser's console is for whoever debugs this page; the orchestrator's log and record are the real ones.
  console.warn('The coding workspace could not start', error);
  return { state: 'failed', retryable: isRetryable(error) };
}

/** Starts the session for each attempt number (a retry is a new number); gives up after CREATE_TIMEOUT_MS. */
function useStartSession(
  { token, examId, enabled }: Options,
  attemptNumber: number,
  setView: SetView,
  live: RefObject<LiveSession>,
) {
  useEffect(() => {
    if (!enabled || !token) return;
    const controller = new AbortController();
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, CREATE_TIMEOUT_MS);
    setView({ state: 'creating' });
    startSession(token, examId, controller.signal)
      .then(
        ({ session, editorUrl }) => {
          live.current = { sessionId: session.sessionId, token };
          setView({ state: 'connecting', session, editorUrl });
        },
        (error: unknown) => {
          if (timedOut) setView(failedView(new Error(`No answer within ${CREATE_TIMEOUT_MS / 1000} seconds`)));
          else if (!controller.signal.aborted) setView(failedView(error));
        },
      )
      .finally(() => clearTimeout(timeout));
    return () => {
      clearTimeout(timeout);
      controller.abort();
    };
  }, [enabled, token, examId, attemptNumber, setView, live]);
}

/** Keeps the proxy cookie fresh and notices a session the orchestrator has ended (reaped, restarted). */
function useRenewEditorAccess(sessionId: string | null, token: string | null, onEnded: () => void) {
  useEffect(() => {
    if (!sessionId || !token) return;
    let stopped = false;
    const timer = setInterval(() => {
      void renewEditorAccess(sessionId, token).then((alive) => {
        if (alive || stopped) return;
        onEnded();
      });
    }, RENEW_ACCESS_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [sessionId, token, onEnded]);
}

/**
 * How full the workspace's disk is, asked every STORAGE_POLL_MS while the editor is up: past its size the
 * candidate's saves fail inside the editor ("No space left on device"), so the panel says so in plain words.
 */
function useWorkspaceStorage(sessionId: string | null, token: string | null) {
  const [storage, setStorage] = useState<Session['storage']>(undefined);
  useEffect(() => {
    setStorage(undefined);
    if (!sessionId || !token) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      findSession(token, sessionId, controller.signal).then(
        (session) => setStorage(session?.storage),
        () => undefined, // a missed poll changes nothing; the next one asks again
      );
    }, STORAGE_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [sessionId, token]);
  return storage;
}

/** Ends the live session when the page closes. */
function useEndSessionOnPageHide(live: RefObject<LiveSession>) {
  useEffect(() => {
    const onPageHide = (event: PageTransitionEvent) => {
      // A page kept in the back/forward cache may come back with its editor; the idle reaper covers it otherwise.
      if (event.persisted || !live.current) return;
      endSessionOnPageClose(live.current.sessionId, live.current.token);
      live.current = null;
    };
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [live]);
}

/**
 * The panel's session: initializing → creating → connecting (3 s) → connected, or failed. A failure that may
 * pass is tried again by itself after a growing delay (retryDelayMs); `retry` tries at once. The session is ended by a beacon when the page
 * closes (the orchestrator keeps the files for the next session), not when the panel unmounts: hiding
 * the panel must not stop the editor.
 */
export function useWorkspaceSession(options: Options) {
  const [attemptNumber, setAttemptNumber] = useState(1);
  const [view, setViewState] = useState<WorkspaceView>({ state: 'initializing' });
  // Failed tries in a row since the editor was last up: the wait before the next automatic try grows with it.
  const [failures, setFailures] = useState(0);
  const setView = useCallback<SetView>((next) => {
    setViewState(next);
    if (next.state === 'failed') setFailures((n) => n + 1);
    else if (next.state === 'connected') setFailures(0);
  }, []);
  const live = useRef<LiveSession>(null);
  useStartSession(options, attemptNumber, setView, live);

  const sessionId = view.state === 'connecting' || view.state === 'connected' ? view.session.sessionId : null;

  useEffect(() => {
    if (view.state !== 'connecting') return;
    const { session, editorUrl } = view;
    const timer = setTimeout(() => setView({ state: 'connected', session, editorUrl }), CONNECTING_MS);
    return () => clearTimeout(timer);
  }, [view, setView]);

  const onEnded = useCallback(() => {
    live.current = null;
    setView(failedView(new WorkspaceStoppedError('The workspace session ended')));
  }, [setView]);
  useRenewEditorAccess(sessionId, options.token, onEnded);
  const storage = useWorkspaceStorage(sessionId, options.token);
  useEndSessionOnPageHide(live);

  const retry = useCallback(() => setAttemptNumber((n) => n + 1), []);
  const retryInSeconds = useRetryBackoff(view.state === 'failed' && view.retryable, failures, retry);
  return { view, attemptNumber, retry, retryInSeconds, sessionId, storage };
}
