import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../engine/docker-client.ts';
import { buildTestApp, newAttempt, type TestApp } from '../testing/app.ts';
import { containerOf } from '../testing/docker.ts';
import { editorCookie, editorsBase, httpCall } from '../testing/http.ts';

const socketPath = inject('dockerSocket');
const instance = inject('workspaceInstance');

describe.skipIf(!socketPath)('reaping and re-adoption', () => {
  const docker = dockerClient(socketPath ?? '');
  type App = TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  const create = async (app: App, attempt = newAttempt(app)) => {
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json();
    expect(session.status).toBe('ready');
    return { attempt, session };
  };
  const exists = async (sessionId: string) =>
    (await docker.listContainers({ all: true, filters: { label: [`exam.session-id=${sessionId}`] } })).length > 0;

  describe('reaper', () => {
    let app: App;
    let base: string;
    beforeAll(async () => {
      app = await buildTestApp({ socketPath: socketPath!, instance, env: { IDLE_TIMEOUT_SECONDS: '2' } });
      base = await editorsBase(app);
    });
    afterAll(() => app.close());

    it('removes a session idle past the timeout and keeps one with proxied traffic', async () => {
      const idle = await create(app);
      const busy = await create(app);
      await new Promise((r) => setTimeout(r, 2200));
      const cookie = await editorCookie(app, busy.attempt.headers, busy.session.sessionId);
      expect((await httpCall(base, busy.session.editorPath, { headers: cookie })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      const reaped = await app.jobs.reap();
      expect(reaped).toContain(idle.session.sessionId);
      expect(reaped).not.toContain(busy.session.sessionId);
      expect(await exists(idle.session.sessionId)).toBe(false);
      expect(await exists(busy.session.sessionId)).toBe(true);
      const again = await create(app, idle.attempt);
      expect(again.session.sessionId).not.toBe(idle.session.sessionId);
    });

    it('ends an abandoned session whose container stopped', async () => {
      const { attempt, session } = await create(app);
      await docker.getContainer(await containerOf(docker, session.sessionId)).kill();
      expect(await app.jobs.reap()).toContain(session.sessionId);
      expect(
        (await app.inject({ method: 'GET', url: '/api/sessions', headers: attempt.headers })).json().sessions,
      ).toEqual([]);
      expect(await exists(session.sessionId)).toBe(false);
    });
  });

  it('re-adopts its containers after a restart, removes orphans and ends sessions whose container vanished', async () => {
    const first: App = await buildTestApp({ socketPath: socketPath!, instance });
    const kept = await create(first);
    const vanished = await create(first);
    await first.close();
    await docker.getContainer(await containerOf(docker, vanished.session.sessionId)).remove({ force: true });
    const orphan = await docker.createContainer({
      Image: 'exam/workspace-test',
      Labels: { 'exam.managed': 'true', 'exam.orchestrator': instance, 'exam.session-id': 'orphan-session' },
    });

    const second: App = await buildTestApp({ socketPath: socketPath!, instance });
    // What server.ts does at start, before it listens.
    await second.jobs.adopt();
    try {
      second.exams.set(kept.attempt.claims.examId, {
        enabled: true,
        saveFilesInResults: true,
        workspaceType: 'vscode',
        allowPackageRegistries: false,
      });
      const page = await httpCall(await editorsBase(second), kept.session.editorPath, {
        headers: await editorCookie(second, kept.attempt.headers, kept.session.sessionId),
      });
      expect(page.status).toBe(200);
      expect(page.body).toContain('Exam workspace');
      const again = await second.inject({
        method: 'POST',
        url: '/api/session/create',
        headers: kept.attempt.headers,
        payload: {},
      });
      expect(again.json().sessionId).toBe(kept.session.sessionId);
      await expect(orphan.inspect()).rejects.toMatchObject({ statusCode: 404 });
      expect(
        (await second.inject({ method: 'GET', url: '/api/sessions', headers: vanished.attempt.headers })).json()
          .sessions,
      ).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
