import { editorPathOf, workspaceUnavailable, type Session, type SessionStatus } from '@exam/domain/workspace';
import { http, HttpResponse } from 'msw';

type Failure = { status: number; code: string; message: string };

/** Where the fake's editors live: an origin of their own, as WORKSPACE_ORIGIN is. */
export const FAKE_WORKSPACE_ORIGIN = 'http://workspace.test';

/**
 * An in-memory stand-in for workspace-orchestrator's candidate endpoints, typed by @exam/domain's
 * session schema. `failures` are answered, in order, before creation succeeds; `startingPolls` is
 * how many status reads still say 'starting' after a create that answered 'starting'.
 */
export function createFakeOrchestrator(
  init: { token?: string; failures?: Failure[]; createStatus?: SessionStatus; startingPolls?: number } = {},
) {
  const token = init.token ?? 'attempt-token';
  const state = {
    failures: [...(init.failures ?? [])],
    createCalls: 0,
    createBodies: [] as unknown[],
    listCalls: 0,
    startingPolls: init.startingPolls ?? 0,
    beacons: [] as Array<{ sessionId: string; body: string; contentType: string | null }>,
    deletes: [] as string[],
    /** Sessions a launch address was asked for: the frame's first load, then each renewal. */
    launches: [] as string[],
    ended: new Set<string>(),
    session: null as Session | null,
    /** What the session list reports of the workspace's disk (set by a test). */
    storage: undefined as Session['storage'],
  };

  const session = (status: SessionStatus): Session => {
    const sessionId = `ws-${state.createCalls}`;
    const at = new Date().toISOString();
    return {
      sessionId,
      attemptId: 'attempt-1',
      examId: 'exam-1',
      userId: 'S-1',
      workspaceType: 'vscode',
      status,
      editorPath: editorPathOf(sessionId),
      port: null,
      warm: true,
      createdAt: at,
      lastActivityAt: at,
    };
  };
  const unauthorized = () =>
    HttpResponse.json(
      { error: { code: 'UNAUTHENTICATED', message: 'Missing, invalid or expired token' } },
      { status: 401 },
    );
  const authorized = (request: Request) => request.headers.get('authorization') === `Bearer ${token}`;

  const handlers = [
    http.post('/api/session/create', async ({ request }) => {
      if (!authorized(request)) return unauthorized();
      state.createCalls += 1;
      state.createBodies.push(await request.json());
      const failure = state.failures.shift();
      if (failure)
        return HttpResponse.json(
          { error: { code: failure.code, message: failure.message } },
          { status: failure.status },
        );
      state.session = session(init.createStatus ?? 'ready');
      return HttpResponse.json(state.session);
    }),
    http.get('/api/sessions', ({ request }) => {
      if (!authorized(request)) return unauthorized();
      state.listCalls += 1;
      const current = state.session;
      if (!current || state.ended.has(current.sessionId)) return HttpResponse.json({ sessions: [] });
      const status: SessionStatus = state.startingPolls > 0 ? 'starting' : 'ready';
      state.startingPolls -= 1;
      return HttpResponse.json({
        sessions: [{ ...current, status, ...(state.storage ? { storage: state.storage } : {}) }],
      });
    }),
    http.post('/api/session/:sessionId/end', async ({ request, params }) => {
      const body = await request.text();
      if (body !== token) return unauthorized();
      state.beacons.push({
        sessionId: String(params.sessionId),
        body,
        contentType: request.headers.get('content-type'),
      });
      state.ended.add(String(params.sessionId));
      return new HttpResponse(null, { status: 204 });
    }),
    http.delete('/api/session/:sessionId', ({ request, params }) => {
      if (!authorized(request)) return unauthorized();
      state.deletes.push(String(params.sessionId));
      state.ended.add(String(params.sessionId));
      return new HttpResponse(null, { status: 204 });
    }),
    http.post('/api/session/:sessionId/launch', ({ request, params }) => {
      if (!authorized(request)) return unauthorized();
      const sessionId = String(params.sessionId);
      state.launches.push(sessionId);
      if (state.ended.has(sessionId))
        return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'Session not found' } }, { status: 404 });
      return HttpResponse.json({
        editorUrl: `${FAKE_WORKSPACE_ORIGIN}${editorPathOf(sessionId)}?launch=launch-${state.launches.length}`,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
    }),
  ];

  return { handlers, state, token };
}

export const unavailable = (reason: string): Failure => ({
  status: 503,
  code: 'UNAVAILABLE',
  message: workspaceUnavailable(reason),
});
