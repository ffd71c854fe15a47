import { SessionListSchema, SessionSchema, type Session } from '@exam/domain/workspace';
import { api } from '../../../config/paths.ts';
import { apiRequest, apiUrl } from '../../../lib/api-client.ts';

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
 * Re-exchanges the token for the proxy's session cookie (it is HttpOnly, path-scoped and lasts
 * WORKSPACE_COOKIE_TTL_SECONDS; only HTTP requests renew it, so a quiet editor whose WebSocket drops
 * would otherwise be locked out). The request also counts as activity for the idle reaper.
 * Resolves false when the session is gone (404).
 */
export async function renewEditorAccess(editorPath: string, token: string): Promise<boolean> {
  try {
    const response = await fetch(apiUrl(api.editorHealth(editorPath, token)), {
      credentials: 'same-origin',
      cache: 'no-store',
    });
    return response.status !== 404;
  } catch {
    return true;
  }
}
