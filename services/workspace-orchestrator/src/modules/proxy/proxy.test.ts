import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, newAttempt, TAKER_ORIGIN, WORKSPACE_ORIGIN, type TestApp } from '../../testing/app.ts';
import { editorCookie, editorsBase, httpCall, upgrade } from '../../testing/http.ts';

const socketPath = inject('dockerSocket');

describe.skipIf(!socketPath)('the /workspace proxy on WORKSPACE_ORIGIN', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let base: string;
  let owner: ReturnType<typeof newAttempt>;
  let sessionId: string;
  let editorPath: string;
  let cookie: { cookie: string };

  beforeAll(async () => {
    app = await buildTestApp({ socketPath: socketPath!, instance: inject('workspaceInstance') });
    base = await editorsBase(app);
    owner = newAttempt(app);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: owner.headers, payload: {} })
    ).json();
    sessionId = session.sessionId;
    editorPath = session.editorPath;
    cookie = await editorCookie(app, owner.headers, sessionId);
  });
  afterAll(() => app.close());

  it('exchanges a launch token in the URL for an HttpOnly cookie scoped to the session, then serves the editor with it', async () => {
    const launch = await app.inject({
      method: 'POST',
      url: `/api/session/${sessionId}/launch`,
      headers: owner.headers,
    });
    const url = new URL(launch.json().editorUrl);
    const first = await httpCall(base, `${url.pathname}${url.search}&folder=/home/coder/workspace`);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(`${editorPath}?folder=%2Fhome%2Fcoder%2Fworkspace`);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(
      new RegExp(`^exam_ws=[^;]+; Path=/workspace/${sessionId}/; Max-Age=\\d+; HttpOnly; SameSite=Strict`),
    );
    const page = await httpCall(base, editorPath, { headers: { cookie: setCookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Exam workspace');
    // The editor's own session cookie is injected by the proxy and never handed to the browser.
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it("forwards a form post from the editor's own page to the editor, which writes the file into the workspace", async () => {
    const body = new URLSearchParams({ name: 'hello.py', content: 'print("hi") # 50% + more' }).toString();
    const saved = await httpCall(base, `${editorPath}cgi-bin/save`, {
      method: 'POST',
      headers: {
        ...cookie,
        origin: WORKSPACE_ORIGIN,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(body.length),
      },
      body,
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('../');
    const files = await app.inject({ method: 'GET', url: `/api/session/${sessionId}/files`, headers: owner.headers });
    expect(files.json().workspaceFiles['hello.py']).toMatchObject({
      content: 'print("hi") # 50% + more',
      type: 'text/x-python',
    });
  });

  it('refuses a request without the cookie, with a forged one, or with an attempt token', async () => {
    expect((await httpCall(base, editorPath)).status).toBe(401);
    expect((await httpCall(base, editorPath, { headers: owner.headers })).status).toBe(401);
    expect((await httpCall(base, `${editorPath}?token=${owner.token}`)).status).toBe(401);
    expect((await httpCall(base, editorPath, { headers: { cookie: 'exam_ws=forged.signature' } })).status).toBe(401);
  });

  it("refuses a foreign origin and the exam page's origin, and accepts the workspace origin", async () => {
    expect((await httpCall(base, editorPath, { headers: { ...cookie, origin: 'http://evil.test' } })).status).toBe(403);
    expect((await httpCall(base, editorPath, { headers: { ...cookie, origin: TAKER_ORIGIN } })).status).toBe(403);
    expect((await httpCall(base, editorPath, { headers: { ...cookie, origin: WORKSPACE_ORIGIN } })).status).toBe(200);
  });

  it('upgrades a WebSocket for the cookie holder from the workspace origin and relays the editor frames', async () => {
    const ws = await upgrade(base, `${editorPath}cgi-bin/ws`, { ...cookie, origin: WORKSPACE_ORIGIN });
    expect(ws.status).toBe(101);
    expect(ws.data).toContain('workspace');
  });

  it("refuses a WebSocket upgrade from another origin, without an origin, or with another session's cookie", async () => {
    const url = `${editorPath}cgi-bin/ws`;
    expect((await upgrade(base, url, { ...cookie, origin: 'http://evil.test' })).status).toBe(403);
    expect((await upgrade(base, url, { ...cookie, origin: TAKER_ORIGIN })).status).toBe(403);
    expect((await upgrade(base, url, { ...cookie })).status).toBe(403);
    const other = newAttempt(app);
    const otherSession = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: other.headers, payload: {} })
    ).json();
    const otherCookie = await editorCookie(app, other.headers, otherSession.sessionId);
    expect((await upgrade(base, url, { ...otherCookie, origin: WORKSPACE_ORIGIN })).status).toBe(401);
    expect((await upgrade(base, url, { origin: WORKSPACE_ORIGIN })).status).toBe(401);
  });

  it('answers 404 for an unknown session', async () => {
    expect((await httpCall(base, '/workspace/doesnotexist/', { headers: cookie })).status).toBe(404);
  });
});
