import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newAttempt, TAKER_ORIGIN, WORKSPACE_ORIGIN } from '../../testing/app.ts';

/** Stands in for a session's editor: answers every request with the headers it received. */
async function startFakeEditor() {
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url, cookie: req.headers.cookie ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, target: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the editor on its own origin', () => {
  let now = new Date('2026-05-01T09:00:00Z');
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let editor: Awaited<ReturnType<typeof startFakeEditor>>;
  let n = 0;

  beforeAll(async () => {
    editor = await startFakeEditor();
    app = await buildTestApp({
      env: { WORKSPACE_LAUNCH_TTL_SECONDS: '60' },
      deps: { clock: { now: () => now } },
    });
  });
  afterAll(async () => {
    await app.close();
    editor.server.close();
  });

  /** A ready session of a fresh attempt whose editor is the fake one. */
  async function readySession() {
    const owner = newAttempt(app);
    const id = `launch-${++n}-${Date.now()}`;
    await app.workspaces.repo.insert({
      id,
      backend: 'docker',
      workspaceType: 'vscode',
      egress: 'none',
      status: 'ready',
      attemptId: owner.claims.sub,
      examId: owner.claims.examId,
      ownerId: owner.claims.ownerId,
      userId: 'S_1',
      target: editor.target,
      editorPassword: 'pw',
      editorCookie: 'editor-session-secret',
      createdAt: now,
      lastActivityAt: now,
    });
    return { owner, id, path: `/workspace/${id}/` };
  }

  const launch = (session: Awaited<ReturnType<typeof readySession>>, headers = session.owner.headers) =>
    app.inject({ method: 'POST', url: `/api/session/${session.id}/launch`, headers });
  const launchUrl = async (session: Awaited<ReturnType<typeof readySession>>) => {
    const response = await launch(session);
    expect(response.statusCode).toBe(200);
    return new URL(response.json().editorUrl as string);
  };
  const open = (url: string, headers: Record<string, string> = {}) =>
    app.editors.inject({ method: 'GET', url, headers: { host: 'workspace.test', ...headers } });
  const cookieOf = (setCookie: unknown) => String(setCookie).split(';')[0]!;

  it('gives the owner a one-time address on WORKSPACE_ORIGIN, exchanged there for an HttpOnly cookie of that session', async () => {
    const session = await readySession();
    const url = await launchUrl(session);
    expect(url.origin).toBe(WORKSPACE_ORIGIN);
    expect(url.pathname).toBe(session.path);
    const token = url.searchParams.get('launch');
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // The launch token is not the attempt token.
    expect(token).not.toBe(session.owner.token);

    const first = await open(`${url.pathname}${url.search}&folder=/home/coder/workspace`);
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe(`${session.path}?folder=%2Fhome%2Fcoder%2Fworkspace`);
    expect(String(first.headers['set-cookie'])).toMatch(
      new RegExp(`^exam_ws=[^;]+; Path=/workspace/${session.id}/; Max-Age=\\d+; HttpOnly; SameSite=Strict$`),
    );
    const page = await open(session.path, { cookie: cookieOf(first.headers['set-cookie']) });
    expect(page.statusCode).toBe(200);
    // The editor gets its own session cookie from the proxy, never the orchestrator's.
    expect(page.json().cookie).toBe('code-server-session=editor-session-secret');
  });

  it('refuses a launch token the second time it is used', async () => {
    const session = await readySession();
    const url = await launchUrl(session);
    expect((await open(`${url.pathname}${url.search}`)).statusCode).toBe(302);
    const again = await open(`${url.pathname}${url.search}`);
    expect(again.statusCode).toBe(401);
    expect(again.json().error.message).toBe('This workspace link is used up or expired');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a launch token once it has expired', async () => {
    const session = await readySession();
    const url = await launchUrl(session);
    const issuedAt = now;
    now = new Date(issuedAt.getTime() + 61_000);
    try {
      expect((await open(`${url.pathname}${url.search}`)).statusCode).toBe(401);
    } finally {
      now = issuedAt;
    }
  });

  it('requires the cookie: no cookie, a forged one, or the attempt token itself is refused', async () => {
    const session = await readySession();
    expect((await open(session.path)).statusCode).toBe(401);
    expect((await open(session.path, { cookie: 'exam_ws=forged.signature' })).statusCode).toBe(401);
    expect((await open(session.path, session.owner.headers)).statusCode).toBe(401);
    expect((await open(`${session.path}?token=${session.owner.token}`)).statusCode).toBe(401);
  });

  it("refuses one session's cookie on another session, and a launch token on another session's path", async () => {
    const mine = await readySession();
    const theirs = await readySession();
    const url = await launchUrl(mine);
    const cookie = cookieOf((await open(`${url.pathname}${url.search}`)).headers['set-cookie']);
    expect((await open(theirs.path, { cookie })).statusCode).toBe(401);
    const second = await launchUrl(mine);
    expect((await open(`${theirs.path}${second.search}`)).statusCode).toBe(401);
  });

  it("refuses to launch another attempt's session", async () => {
    const session = await readySession();
    const stranger = newAttempt(app);
    expect((await launch(session, stranger.headers)).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/session/${session.id}/launch` })).statusCode).toBe(401);
  });

  it("accepts requests from the editor's own origin only, not the exam page's", async () => {
    const session = await readySession();
    const url = await launchUrl(session);
    const cookie = cookieOf((await open(`${url.pathname}${url.search}`)).headers['set-cookie']);
    expect((await open(session.path, { cookie, origin: WORKSPACE_ORIGIN })).statusCode).toBe(200);
    expect((await open(session.path, { cookie, origin: TAKER_ORIGIN })).statusCode).toBe(403);
  });

  it('serves no editor on the API listener', async () => {
    const session = await readySession();
    expect((await app.inject({ method: 'GET', url: session.path, headers: session.owner.headers })).statusCode).toBe(
      404,
    );
  });

  it("keeps no memory of requests for sessions that do not exist: 1,000 made-up ids leave the proxy's maps as they were", async () => {
    const session = await readySession();
    const url = await launchUrl(session);
    const cookie = cookieOf((await open(`${url.pathname}${url.search}`)).headers['set-cookie']);
    expect((await open(session.path, { cookie })).statusCode).toBe(200);
    const before = app.workspaces.targets.size();
    expect(before.rows).toBeGreaterThan(0);
    for (let i = 0; i < 1000; i++) {
      const id = `made-up-${i}-${Math.random().toString(36).slice(2)}`;
      expect((await open(`/workspace/${id}/`, { cookie })).statusCode).toBe(404);
    }
    expect(app.workspaces.targets.size()).toEqual(before);
  });
});
