import { plainWorkspaceUnavailable } from '@exam/domain/service-status';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDockerEngine } from '../../engine/docker-engine.ts';
import { createLocalEngine } from '../../engine/local-engine.ts';
import { buildTestApp, creatorToken, newAttempt, type TestApp } from '../../testing/app.ts';
import { editorCookie, editorsBase, httpCall } from '../../testing/http.ts';

const noEngine = () =>
  createDockerEngine({
    socketPath: '/nonexistent/docker.sock',
    instance: 'none',
    network: 'n',
    egressNetwork: 'e',
    memoryMb: 64,
    cpus: 1,
    pidsLimit: 64,
    tmpMb: 16,
  });

describe('without a Docker engine', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({
      socketPath: '/nonexistent/docker.sock',
      instance: 'none',
      deps: { engines: [noEngine()] },
    });
  });
  afterAll(() => app.close());

  const reasonOf = (attemptId: string, creatorId: string) =>
    app.inject({
      method: 'GET',
      url: `/api/session/attempts/${attemptId}/start-failure`,
      headers: creatorToken(app, creatorId),
    });

  it('answers the candidate a bare 503 Workspace Unavailable while the rest of the service works', async () => {
    const attempt = newAttempt(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(response.statusCode).toBe(503);
    // No socket path, engine or error code for the candidate: the reason is the creator's to read.
    expect(response.json().error).toEqual({ code: 'UNAVAILABLE', message: 'Workspace Unavailable' });
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/sessions', headers: attempt.headers })).json()).toEqual({
      sessions: [],
    });
  });

  it('records the reason with the attempt for its creator, counting every failed try', async () => {
    const attempt = newAttempt(app);
    expect((await reasonOf(attempt.claims.sub, attempt.claims.ownerId)).json()).toEqual({ failure: null });
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/session/create',
        headers: attempt.headers,
        payload: {},
      });
      expect(response.statusCode).toBe(503);
    }
    const answer = await reasonOf(attempt.claims.sub, attempt.claims.ownerId);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().failure).toMatchObject({
      attemptId: attempt.claims.sub,
      reason: plainWorkspaceUnavailable('engine-unreachable'),
      failures: 3,
    });
    // The creator reads what it means and who can fix it; the socket and the error code are the operator's (log).
    expect(answer.json().failure.reason).toMatch(/^The server that runs coding workspaces is not available right now/);
    expect(answer.body).not.toMatch(/docker\.sock|ENOENT|Docker engine/);
    expect(Date.parse(answer.json().failure.lastFailedAt)).toBeGreaterThanOrEqual(
      Date.parse(answer.json().failure.firstFailedAt),
    );
  });

  it("tells no other creator, and no candidate, why an attempt's workspace failed", async () => {
    const attempt = newAttempt(app);
    await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} });
    expect((await reasonOf(attempt.claims.sub, 'someone-else')).json()).toEqual({ failure: null });
    const asCandidate = await app.inject({
      method: 'GET',
      url: `/api/session/attempts/${attempt.claims.sub}/start-failure`,
      headers: attempt.headers,
    });
    expect(asCandidate.statusCode).toBe(403);
  });
});

describe('start-failure records', () => {
  let now = Date.parse('2026-03-01T09:00:00Z');
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({
      env: { START_FAILURE_RETENTION_DAYS: '2' },
      deps: { engines: [noEngine()], clock: { now: () => new Date(now) } },
    });
  });
  afterAll(() => app.close());

  const failureOf = async (attempt: ReturnType<typeof newAttempt>) =>
    (
      await app.inject({
        method: 'GET',
        url: `/api/session/attempts/${attempt.claims.sub}/start-failure`,
        headers: creatorToken(app, attempt.claims.ownerId),
      })
    ).json().failure;
  const failStart = (attempt: ReturnType<typeof newAttempt>) =>
    app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} });

  it('are deleted by the reaper once their last failed try is older than the retention, and not before', async () => {
    const old = newAttempt(app);
    await failStart(old);
    now += 36 * 3600_000;
    const recent = newAttempt(app);
    await failStart(recent);

    await app.jobs.reap();
    expect(await failureOf(old)).not.toBeNull();

    now += 13 * 3600_000; // the old record is 49 h old, the recent one 13 h
    await app.jobs.reap();
    expect(await failureOf(old)).toBeNull();
    expect(await failureOf(recent)).toMatchObject({ failures: 1 });
  });
});

describe('without a Docker engine but with a local code-server', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exam-local-ws-'));
    const binary = join(dir, 'code-server');
    const fake = fileURLToPath(new URL('../../testing/fake-code-server.ts', import.meta.url));
    writeFileSync(binary, `#!/bin/sh\nexec "${process.execPath}" "${fake}" "$@"\n`);
    chmodSync(binary, 0o755);
    // No image override: a local process is always code-server, with its own /login.
    app = await buildTestApp({
      socketPath: '/nonexistent/docker.sock',
      instance: 'none',
      env: { WORKSPACE_IMAGE_OVERRIDES: '' },
      deps: { engines: [noEngine(), createLocalEngine({ binary, dir: join(dir, 'sessions') })] },
    });
    base = await editorsBase(app);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the editor as a local process per session behind the same proxy, collects its files and stops it', async () => {
    const attempt = newAttempt(app);
    const created = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    const session = created.json();
    expect(session.status, created.body).toBe('ready');
    // The local engine's 'volume' is a folder named like the engine's volume, kept apart from the process's home.
    writeFileSync(
      join(dir, 'sessions', 'volumes', `exam-ws-${session.sessionId}`, 'workspace', 'main.py'),
      'print(42)\n',
    );
    const page = await httpCall(base, session.editorPath, {
      headers: await editorCookie(app, attempt.headers, session.sessionId),
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain('main.py');
    const launchByStranger = await app.inject({
      method: 'POST',
      url: `/api/session/${session.sessionId}/launch`,
      headers: newAttempt(app).headers,
    });
    expect(launchByStranger.statusCode).toBe(403);

    // The orchestrator's secrets stay out of the editor's environment (a candidate's terminal could read it).
    process.env.EXAM_CANARY_SECRET = 'canary-never-inherited';
    const other = newAttempt(app);
    const again = await app.inject({ method: 'POST', url: '/api/session/create', headers: other.headers, payload: {} });
    delete process.env.EXAM_CANARY_SECRET;
    const envReply = await httpCall(base, `${again.json().editorPath}__env`, {
      headers: await editorCookie(app, other.headers, again.json().sessionId),
    });
    expect(envReply.status).toBe(200);
    const envNames = JSON.parse(envReply.body) as string[];
    expect(envNames).toContain('HASHED_PASSWORD');
    expect(envNames).not.toContain('EXAM_CANARY_SECRET');
    // The allowlist, HOME, the hash, and what the fake's #!/bin/sh wrapper adds itself.
    const expected = [
      'PATH',
      'LANG',
      'LC_ALL',
      'LC_CTYPE',
      'TZ',
      'TERM',
      'SHELL',
      'USER',
      'LOGNAME',
      'TMPDIR',
      'HOME',
      'HASHED_PASSWORD',
      'PWD',
      'OLDPWD',
      'SHLVL',
      '_',
    ];
    expect(envNames.filter((name) => !expected.includes(name))).toEqual([]);
    // Ended here: the suites share one database, and another suite's reaper must not find this local session.
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/session/${again.json().sessionId}`, headers: other.headers }))
        .statusCode,
    ).toBe(204);

    const collected = await app.inject({
      method: 'POST',
      url: `/internal/attempts/${attempt.claims.sub}/collect`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      payload: {},
    });
    expect(collected.json().files['main.py']).toMatchObject({ content: 'print(42)\n', type: 'text/x-python' });

    // The row, not the proxy's target (collecting at submit may already have ended the session).
    const pid = Number((await app.workspaces.repo.find(session.sessionId))!.handle);
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/session/${session.sessionId}`, headers: attempt.headers }))
        .statusCode,
    ).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
