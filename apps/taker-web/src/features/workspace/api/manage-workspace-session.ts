import { SessionLaunchSchema, SessionListSchema, SessionSchema, type Session } from '@exam/domain/workspace';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest, apiUrl } from '../../../lib/api-client.ts';

/** Starts or reuses the attempt's workspace; the orchestrator answers once the editor is up (or 503). */
export function createSession(token: string, examId: string, signal: AbortSignal): Promise<Session> {
  // The user id is left to the token's studentId: the token is the authority, the body only advisory.
  return apiRequest(api.createSession, { method: 'POST', token, body: { examId }, schema: SessionSchema, signal });
}

/** The session as the orchestrator sees it now; undefined once it is no longer live. */
export async function findSession(token: string, sessionId: string, signal: AbortSignal): Promise<Session | undefined> {
  const { sessions } = await apiRequest(api.sessions, { token, schema: SessionListSchema, signal });
  return sessions.find((session) => session.sessionId === sessionId);
}

/**
 * The session is deleted when the page closes, so an abandoned tab does not hold a container. Only its container stops: the files
 * stay in the attempt's volume, and the next create (a reload) mounts them again. A beacon survives the unload; where
 * the browser refuses it, a keepalive DELETE with the header does the same.
 */
export function endSessionOnPageClose(sessionId: string, token: string): void {
  const queued =
    typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(apiUrl(api.endSessionBeacon(sessionId)), token);
  if (queued) return;
  void fetch(apiUrl(api.session(sessionId)), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
    keepalive: true,
  }).catch(() => undefined);
}

/**
 * A one-time address of the session's editor on WORKSPACE_ORIGIN: the orchestrator exchanges its launch token
 * for its own cookie there, so the attempt token never reaches the editor's origin. Ask again for each load.
 */
export async function launchEditor(token: string, sessionId: string, signal?: AbortSignal): Promise<string> {
  const { editorUrl } = await apiRequest(api.launchEditor(sessionId), {
    method: 'POST',
    token,
    schema: SessionLaunchSchema,
    ...(signal ? { signal } : {}),
  });
  return editorUrl;
}

/** Loads an address in an invisible frame (the page's CSP allows frames of WORKSPACE_ORIGIN, not fetches). */
function loadInHiddenFrame(url: string): Promise<void> {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.setAttribute('aria-hidden', 'true');
    frame.setAttribute('sandbox', '');
    const done = () => {
      frame.remove();
      resolve();
    };
    frame.addEventListener('load', done, { once: true });
    setTimeout(done, 10_000);
    frame.src = url;
    document.body.append(frame);
  });
}

/**
 * Renews the orchestrator's cookie on the editor's origin (HttpOnly, path-scoped, WORKSPACE_COOKIE_TTL_SECONDS;
 * only HTTP requests renew it, so a quiet editor whose WebSocket drops would otherwise be locked out): a fresh
 * launch address of the editor's health check, opened in an invisible frame. The request also counts as
 * activity for the idle reaper. Resolves false when the session is gone (404).
 */
export async function renewEditorAccess(sessionId: string, token: string): Promise<boolean> {
  let editorUrl: string;
  try {
    editorUrl = await launchEditor(token, sessionId);
  } catch (error) {
    return !(error instanceof ApiError && error.status === 404);
  }
  const health = new URL('healthz', editorUrl);
  health.search = new URL(editorUrl).search;
  await loadInHiddenFrame(health.toString());
  return true;
}
