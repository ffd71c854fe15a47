import type { Session } from '@exam/domain/workspace';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  createSession,
  endSessionOnPageClose,
  findSession,
  launchEditor,
  renewEditorAccess,
} from '../api/workspace-api.ts';
import {
  CONNECTING_MS,
  CREATE_TIMEOUT_MS,
  DEFAULT_FAILURE,
  failureReason,
  RENEW_ACCESS_MS,
  STATUS_POLL_MS,
  WorkspaceStoppedError,
} from '../lib/workspace-session.ts';

/** The workspace panel's states: creating the session, waiting for the editor, connected, or failed with a reason. */
export type WorkspaceView =
  | { state: 'initializing' }
  | { state: 'creating' }
  | { state: 'connecting'; session: Session; editorUrl: string }
  | { state: 'connected'; session: Session; editorUrl: string }
  | { state: 'failed'; reason: string };
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
          if (timedOut)
            setView({
              state: 'failed',
              reason: `${DEFAULT_FAILURE} (it did not start within ${CREATE_TIMEOUT_MS / 1000} seconds)`,
            });
          else if (!controller.signal.aborted) setView({ state: 'failed', reason: failureReason(error) });
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
 * The panel's session: initializing → creating → connecting (3 s) → connected, or failed with a
 * reason; `retry` starts over and counts the attempt. The session is ended by a beacon when the page
 * closes (the orchestrator keeps the files for the next session), not when the panel unmounts: hiding
 * the panel must not stop the editor.
 */
export function useWorkspaceSession(options: Options) {
  const [attemptNumber, setAttemptNumber] = useState(1);
  const [view, setView] = useState<WorkspaceView>({ state: 'initializing' });
  const live = useRef<LiveSession>(null);
  useStartSession(options, attemptNumber, setView, live);

  const sessionId = view.state === 'connecting' || view.state === 'connected' ? view.session.sessionId : null;

  useEffect(() => {
    if (view.state !== 'connecting') return;
    const { session, editorUrl } = view;
    const timer = setTimeout(() => setView({ state: 'connected', session, editorUrl }), CONNECTING_MS);
    return () => clearTimeout(timer);
  }, [view]);

  const onEnded = useCallback(() => {
    live.current = null;
    setView({ state: 'failed', reason: 'Your workspace session has ended' });
  }, []);
  useRenewEditorAccess(sessionId, options.token, onEnded);
  useEndSessionOnPageHide(live);

  const retry = useCallback(() => setAttemptNumber((n) => n + 1), []);
  return { view, attemptNumber, retry, sessionId };
}
