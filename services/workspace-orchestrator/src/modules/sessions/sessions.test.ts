import { plainWorkspaceUnavailable } from '@exam/domain/service-status';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../../engine/docker-client.ts';
import { buildTestApp, creatorToken, newAttempt, TAKER_ORIGIN, testConfig, type TestApp } from '../../testing/app.ts';
import { editorCookie, editorsBase, httpCall } from '../../testing/http.ts';

const socketPath = inject('dockerSocket');

describe.skipIf(!socketPath)('workspace sessions on the real Docker engine', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  let base: string;
  const docker = dockerClient(socketPath ?? '');

  beforeAll(async () => {
    app = await buildTestApp({ socketPath: socketPath!, instance: inject('workspaceInstance') });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => app.close());

  it('starts a locked-down container for an attempt and answers its proxied editor path', async () => {
    const attempt = newAttempt(app);
    const response = await httpCall(base, '/api/session/create', {
      method: 'POST',
      headers: { ...attempt.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'Jane  Doe', examId: attempt.claims.examId }),
    });
    expect(response.status).toBe(200);
    const session = JSON.parse(response.body);
    expect(session).toMatchObject({
      status: 'ready',
      port: null,
      userId: 'Jane_Doe',
      attemptId: attempt.claims.sub,
      editorPath: `/workspace/${session.sessionId}/`,
    });
    // Warm or cold depends on whether an earlier file of the run left a pool for this instance; both must be locked down.
    expect(typeof session.warm).toBe('boolean');
    // The session names the engine's host (its `docker info` ID), so orchestrators on other hosts leave it alone.
    const engineId = ((await docker.info()) as { ID: string }).ID;
    expect((await app.workspaces.repo.find(session.sessionId))?.host).toBe(`docker:${engineId}`);

    const [container] = await docker.listContainers({ filters: { label: [`exam.session-id=${session.sessionId}`] } });
    const info = await docker.getContainer(container!.Id).inspect();
    expect(info.Config.User).toBe('1000:1000');
    expect(info.HostConfig.CapDrop).toEqual(['ALL']);
    expect(info.HostConfig.SecurityOpt).toEqual(['no-new-privileges']);
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.Memory).toBe(64 * 1024 * 1024);
    expect(info.HostConfig.PidsLimit).toBe(64);
    expect(info.HostConfig.NanoCpus).toBe(5e8);
    expect(info.HostConfig.NetworkMode).toBe('exam-workspaces');
    expect(container!.Ports.filter((p) => p.PublicPort)).toEqual([]);
    expect(info.Config.Labels).toMatchObject({
      'exam.attempt-id': attempt.claims.sub,
      'exam.owner-id': attempt.claims.ownerId,
      'exam.workspace-type': 'vscode',
      'exam.pool': 'assigned',
    });
    expect(info.Mounts.find((m) => m.Destination === '/home/coder/workspace')?.RW).toBe(true);

    const page = await httpCall(await editorsBase(app), session.editorPath, {
      headers: await editorCookie(app, attempt.headers, session.sessionId),
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Exam workspace');
  });

  it('reuses the attempt workspace when create is called again, even concurrently', async () => {
    const attempt = newAttempt(app);
    const calls = await Promise.all(
      [1, 2, 3].map(() =>
        app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} }),
      ),
    );
    const ids = new Set(calls.map((c) => c.json().sessionId));
    expect(calls.map((c) => c.statusCode)).toEqual([200, 200, 200]);
    expect(ids.size).toBe(1);
    const again = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(again.json().sessionId).toBe([...ids][0]);
    const running = await docker.listContainers({ filters: { label: [`exam.attempt-id=${attempt.claims.sub}`] } });
    expect(running).toHaveLength(1);
  });

  it('answers the candidate Workspace Unavailable and keeps the reason for the creator when the type image is absent', async () => {
    // The engine may hold the real images by now, so this catalogue names one that is never built.
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
    const catalogue = JSON.parse(readFileSync(testConfig().WORKSPACE_CATALOGUE, 'utf8'));
    catalogue.types['r-studio'].image = 'exam/workspace-never-built';
    writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(catalogue));
    const other = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      env: { WORKSPACE_CATALOGUE: join(dir, 'catalogue.json') },
    });
    try {
      const attempt = newAttempt(other, { workspaceType: 'r-studio' });
      const response = await other.inject({
        method: 'POST',
        url: '/api/session/create',
        headers: attempt.headers,
        payload: {},
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toEqual({ code: 'UNAVAILABLE', message: 'Workspace Unavailable' });
      const failure = await other.inject({
        method: 'GET',
        url: `/api/session/attempts/${attempt.claims.sub}/start-failure`,
        headers: creatorToken(other, attempt.claims.ownerId),
      });
      expect(failure.json().failure.reason).toBe(plainWorkspaceUnavailable('image-missing', 'r-studio'));
      expect(failure.body).not.toMatch(/workspace-never-built|infra\//);
    } finally {
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a creator token, a closed attempt and an exam without a workspace', async () => {
    const asCreator = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: creatorToken(app, 'someone'),
      payload: {},
    });
    expect(asCreator.statusCode).toBe(403);
    const closed = newAttempt(app);
    app.closedAttempts.add(closed.claims.sub);
    expect(
      (await app.inject({ method: 'POST', url: '/api/session/create', headers: closed.headers, payload: {} }))
        .statusCode,
    ).toBe(409);
    const disabled = newAttempt(app, { enabled: false });
    const off = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: disabled.headers,
      payload: {},
    });
    expect(off.statusCode).toBe(409);
    expect(off.json().error.message).toBe('The coding workspace is not enabled for this exam');
  });

  it('lists sessions to their attempt and to the exam creator only, and shows files to the same people', async () => {
    const owner = `owner-list-${Date.now()}`;
    const attempt = newAttempt(app, {}, owner);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    const mine = (await app.inject({ method: 'GET', url: '/api/sessions', headers: attempt.headers })).json().sessions;
    expect(mine.map((s: { sessionId: string }) => s.sessionId)).toEqual([session.sessionId]);
    const creators = (
      await app.inject({ method: 'GET', url: '/api/sessions', headers: creatorToken(app, owner) })
    ).json().sessions;
    expect(creators.map((s: { sessionId: string }) => s.sessionId)).toEqual([session.sessionId]);
    const stranger = (
      await app.inject({ method: 'GET', url: '/api/sessions', headers: creatorToken(app, 'another-creator') })
    ).json().sessions;
    expect(stranger).toEqual([]);

    const files = await app.inject({
      method: 'GET',
      url: `/api/session/${session.sessionId}/files`,
      headers: creatorToken(app, owner),
    });
    expect(files.statusCode).toBe(200);
    expect(files.json()).toEqual({ workspaceFiles: {} });
    const otherCreator = await app.inject({
      method: 'GET',
      url: `/api/session/${session.sessionId}/files`,
      headers: creatorToken(app, 'another-creator'),
    });
    expect(otherCreator.statusCode).toBe(403);
    const otherAttempt = newAttempt(app);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/api/session/${session.sessionId}/files`,
          headers: otherAttempt.headers,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('ends a session on DELETE by its owner only, and on the page-close beacon', async () => {
    const attempt = newAttempt(app);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    const other = newAttempt(app);
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/session/${session.sessionId}`, headers: other.headers }))
        .statusCode,
    ).toBe(403);
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/session/${session.sessionId}`, headers: attempt.headers }))
        .statusCode,
    ).toBe(204);
    expect(
      await docker.listContainers({ all: true, filters: { label: [`exam.session-id=${session.sessionId}`] } }),
    ).toEqual([]);
    expect((await httpCall(await editorsBase(app), session.editorPath)).status).toBe(404);

    const second = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    expect(second.sessionId).not.toBe(session.sessionId);
    const beacon = await app.inject({
      method: 'POST',
      url: `/api/session/${second.sessionId}/end`,
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: TAKER_ORIGIN },
      payload: attempt.token,
    });
    expect(beacon.statusCode).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: '/api/sessions', headers: attempt.headers })).json().sessions,
    ).toEqual([]);
  });

  it('hands out a warm container when the pool has one, then refills the pool', async () => {
    const pooled = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      env: { WARM_POOL_SIZE: '1' },
    });
    try {
      await pooled.jobs.refill();
      const attempt = newAttempt(pooled);
      const session = (
        await pooled.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
      ).json();
      expect(session).toMatchObject({ status: 'ready', warm: true, attemptId: attempt.claims.sub });
      const pooledBase = await editorsBase(pooled);
      const cookie = await editorCookie(pooled, attempt.headers, session.sessionId);
      expect((await httpCall(pooledBase, session.editorPath, { headers: cookie })).body).toContain('Exam workspace');
      await pooled.jobs.refill();
      const warm = await docker.listContainers({
        filters: { label: ['exam.pool=warm', `exam.orchestrator=${inject('workspaceInstance')}`] },
      });
      expect(warm.length).toBeGreaterThanOrEqual(2);
      // WARM_POOL_TYPES=vscode: no other type is pooled, even where its real image is on the engine.
      expect(new Set(warm.map((c) => c.Labels['exam.workspace-type']))).toEqual(new Set(['vscode']));
    } finally {
      await pooled.close();
    }
  });
});
