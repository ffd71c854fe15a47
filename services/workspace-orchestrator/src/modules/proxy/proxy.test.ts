import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  buildTestApp,
  CREATOR_ORIGIN,
  creatorToken,
  newAttempt,
  TAKER_ORIGIN,
  type TestApp,
} from '../../testing/app.ts';
import { httpCall, upgrade } from '../../testing/http.ts';

const socketPath = inject('dockerSocket');

describe.skipIf(!socketPath)('the /workspace proxy', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let base: string;
  let owner: ReturnType<typeof newAttempt>;
  let sessionId: string;
  let editorPath: string;

  beforeAll(async () => {
    app = await buildTestApp({ socketPath: socketPath!, instance: inject('workspaceInstance') });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    owner = newAttempt(app);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: owner.headers, payload: {} })
    ).json();
    sessionId = session.sessionId;
    editorPath = session.editorPath;
  });
  afterAll(() => app.close());

  it('exchanges a token in the URL for an HttpOnly cookie scoped to the session, then serves the editor with it', async () => {
    const first = await httpCall(base, `${editorPath}?token=${owner.token}&folder=/home/coder/workspace`);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(`${editorPath}?folder=%2Fhome%2Fcoder%2Fworkspace`);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(
      new RegExp(`^exam_ws=[^;]+; Path=/workspace/${sessionId}/; Max-Age=\\d+; HttpOnly; SameSite=Strict`),
    );
    const cookie = setCookie.split(';')[0]!;
    const page = await httpCall(base, editorPath, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Exam workspace');
    // The editor's own session cookie is injected by the proxy and never handed to the browser.
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it('forwards a form post from the taker origin to the editor, which writes the file into the workspace', async () => {
    const body = new URLSearchParams({ name: 'hello.py', content: 'print("hi") # 50% + more' }).toString();
    const saved = await httpCall(base, `${editorPath}cgi-bin/save`, {
      method: 'POST',
      headers: {
        ...owner.headers,
        origin: TAKER_ORIGIN,
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

  it('refuses a request without a token, with another attempt token, or a creator token', async () => {
    expect((await httpCall(base, editorPath)).status).toBe(401);
    const other = newAttempt(app);
    const foreign = await httpCall(base, editorPath, { headers: other.headers });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toBe('This workspace belongs to another attempt');
    expect((await httpCall(base, `${editorPath}?token=${other.token}`)).status).toBe(403);
    expect((await httpCall(base, editorPath, { headers: creatorToken(app, owner.claims.ownerId) })).status).toBe(403);
    expect((await httpCall(base, editorPath, { headers: { cookie: 'exam_ws=forged.signature' } })).status).toBe(401);
  });

  it('refuses a foreign origin and accepts the taker and creator origins', async () => {
    expect(
      (await httpCall(base, editorPath, { headers: { ...owner.headers, origin: 'http://evil.test' } })).status,
    ).toBe(403);
    expect((await httpCall(base, editorPath, { headers: { ...owner.headers, origin: TAKER_ORIGIN } })).status).toBe(
      200,
    );
    expect((await httpCall(base, editorPath, { headers: { ...owner.headers, origin: CREATOR_ORIGIN } })).status).toBe(
      200,
    );
  });

  it('upgrades a WebSocket for the owner from the taker origin and relays the editor frames', async () => {
    const ws = await upgrade(base, `${editorPath}cgi-bin/ws`, { ...owner.headers, origin: TAKER_ORIGIN });
    expect(ws.status).toBe(101);
    expect(ws.data).toContain('workspace');
  });

  it('refuses a WebSocket upgrade from a foreign origin, without an origin, or with another attempt token', async () => {
    const url = `${editorPath}cgi-bin/ws`;
    expect((await upgrade(base, url, { ...owner.headers, origin: 'http://evil.test' })).status).toBe(403);
    expect((await upgrade(base, url, { ...owner.headers })).status).toBe(403);
    const other = newAttempt(app);
    expect((await upgrade(base, url, { ...other.headers, origin: TAKER_ORIGIN })).status).toBe(403);
    expect((await upgrade(base, url, { origin: TAKER_ORIGIN })).status).toBe(401);
  });

  it('answers 404 for an unknown session', async () => {
    expect((await httpCall(base, '/workspace/doesnotexist/', { headers: owner.headers })).status).toBe(404);
  });
});
