import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../../engine/docker-client.ts';
import { buildTestApp, newAttempt, TAKER_ORIGIN, type TestApp } from '../../testing/app.ts';
import { containerOf, execIn } from '../../testing/docker.ts';

const socketPath = inject('dockerSocket');

/** The engine multiplexes an exec's output in frames (8-byte header: stream, 0, 0, 0, 32-bit length); execIn keeps them as latin1. */
function stdoutOf(raw: string): string {
  let out = '';
  for (let i = 0; i + 8 <= raw.length;) {
    const length =
      ((raw.charCodeAt(i + 4) << 24) |
        (raw.charCodeAt(i + 5) << 16) |
        (raw.charCodeAt(i + 6) << 8) |
        raw.charCodeAt(i + 7)) >>>
      0;
    if (raw.charCodeAt(i) === 1) out += raw.slice(i + 8, i + 8 + length);
    i += 8 + length;
  }
  return Buffer.from(out, 'latin1').toString('utf8');
}
const instance = inject('workspaceInstance');

describe.skipIf(!socketPath)('workspace volumes outlive their sessions', () => {
  type App = TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  const docker = dockerClient(socketPath ?? '');
  let app: App;
  beforeAll(async () => {
    // 'excel' is served by the test image too; no other test fills a pool for it, so these creates are cold starts.
    app = await buildTestApp({
      socketPath: socketPath!,
      instance,
      env: { WORKSPACE_VOLUME_GRACE_SECONDS: '1', WORKSPACE_IMAGE_OVERRIDES: 'vscode=test,excel=test' },
    });
  });
  const coldAttempt = () => newAttempt(app, { workspaceType: 'excel' });
  afterAll(() => app.close());

  const create = async (a: App, attempt: ReturnType<typeof newAttempt>) => {
    const response = await a.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { sessionId: string; warm: boolean };
  };
  const write = async (sessionId: string, name: string, text: string) => {
    const done = await execIn(docker, await containerOf(docker, sessionId), [
      'sh',
      '-c',
      `printf '%s' "$1" > /home/coder/workspace/${name}`,
      'sh',
      text,
    ]);
    expect(done.exitCode).toBe(0);
  };
  const read = async (sessionId: string, name: string) =>
    stdoutOf(
      (await execIn(docker, await containerOf(docker, sessionId), ['cat', `/home/coder/workspace/${name}`])).output,
    );
  const beacon = (a: App, sessionId: string, token: string) =>
    a.inject({
      method: 'POST',
      url: `/api/session/${sessionId}/end`,
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: TAKER_ORIGIN },
      payload: token,
    });
  const collect = (a: App, attemptId: string) =>
    a.inject({
      method: 'POST',
      url: `/internal/attempts/${attemptId}/collect`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      payload: {},
    });
  const volumesOf = async (attemptId: string) =>
    (await docker.listVolumes({ filters: { label: [`exam.attempt-id=${attemptId}`] } })).Volumes ?? [];
  const volumeExists = async (name: string) =>
    (await docker.listVolumes({ filters: { name: [name] } })).Volumes?.some((v) => v.Name === name) ?? false;
  const containersOf = async (sessionId: string) =>
    docker.listContainers({ all: true, filters: { label: [`exam.session-id=${sessionId}`] } });

  it('keeps the files when the page-close beacon ends the session and mounts them again on the next create', async () => {
    const attempt = coldAttempt();
    const first = await create(app, attempt);
    expect(first.warm).toBe(false);
    await write(first.sessionId, 'solution.py', 'print("kept")\n');
    const [volume] = await volumesOf(attempt.claims.sub);
    expect(volume?.Labels).toMatchObject({ 'exam.attempt-id': attempt.claims.sub, 'exam.orchestrator': instance });

    expect((await beacon(app, first.sessionId, attempt.token)).statusCode).toBe(204);
    expect(await containersOf(first.sessionId)).toEqual([]);
    expect(await volumeExists(volume!.Name)).toBe(true);

    const second = await create(app, attempt);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(await read(second.sessionId, 'solution.py')).toBe('print("kept")\n');
    expect((await volumesOf(attempt.claims.sub)).map((v) => v.Name)).toEqual([volume!.Name]);
  });

  it('ignores the reloaded page’s late end beacon when the new page’s create already reused the session', async () => {
    const graceful: App = await buildTestApp({
      socketPath: socketPath!,
      instance,
      env: { WORKSPACE_PAGE_CLOSE_GRACE_MS: '60000', WORKSPACE_IMAGE_OVERRIDES: 'vscode=test,excel=test' },
    });
    try {
      const attempt = newAttempt(graceful, { workspaceType: 'excel' });
      const session = await create(graceful, attempt);
      expect((await beacon(graceful, session.sessionId, attempt.token)).statusCode).toBe(204);
      expect((await containersOf(session.sessionId)).map((c) => c.State)).toEqual(['running']);
      // An explicit DELETE is not a page close: it ends the session at once.
      expect(
        (
          await graceful.inject({
            method: 'DELETE',
            url: `/api/session/${session.sessionId}`,
            headers: attempt.headers,
          })
        ).statusCode,
      ).toBe(204);
      expect(await containersOf(session.sessionId)).toEqual([]);
    } finally {
      await graceful.close();
    }
  });

  it('collects at submit from the volume when the session had already ended and removes the volume once the attempt is closed', async () => {
    const attempt = coldAttempt();
    const session = await create(app, attempt);
    await write(session.sessionId, 'notes.txt', 'typed before the reload');
    const [volume] = await volumesOf(attempt.claims.sub);
    expect((await beacon(app, session.sessionId, attempt.token)).statusCode).toBe(204);

    const collected = await collect(app, attempt.claims.sub);
    expect(collected.statusCode).toBe(200);
    expect(collected.json().files['notes.txt']).toMatchObject({ content: 'typed before the reload', size: 23 });
    // The helper container that read the volume is gone too.
    expect(
      await docker.listContainers({ all: true, filters: { label: [`exam.session-id=reader-${volume!.Name}`] } }),
    ).toEqual([]);

    await app.jobs.reapVolumes();
    expect(await volumeExists(volume!.Name)).toBe(true);
    app.closedAttempts.add(attempt.claims.sub);
    expect(await app.jobs.reapVolumes()).toContain(volume!.Name);
    expect(await volumeExists(volume!.Name)).toBe(false);
  });

  it('ends the live session after a successful collect and keeps the volume for a repeated collect until the attempt closes', async () => {
    const attempt = coldAttempt();
    const session = await create(app, attempt);
    await write(session.sessionId, 'main.js', 'console.log(1)\n');
    const first = await collect(app, attempt.claims.sub);
    expect(first.json().files['main.js']).toMatchObject({ content: 'console.log(1)\n', type: 'text/javascript' });
    expect(await containersOf(session.sessionId)).toEqual([]);
    expect(
      (await app.inject({ method: 'GET', url: '/api/sessions', headers: attempt.headers })).json().sessions,
    ).toEqual([]);

    // results-service retries a submit whose store failed: the files are still there.
    expect((await collect(app, attempt.claims.sub)).json().files['main.js']?.content).toBe('console.log(1)\n');
    const [volume] = await volumesOf(attempt.claims.sub);
    app.closedAttempts.add(attempt.claims.sub);
    await app.jobs.reap();
    expect(await volumeExists(volume!.Name)).toBe(false);
  });

  it('removes the volume of a closed attempt whose files were never collected only after the grace period', async () => {
    const attempt = coldAttempt();
    const session = await create(app, attempt);
    const [volume] = await volumesOf(attempt.claims.sub);
    expect((await beacon(app, session.sessionId, attempt.token)).statusCode).toBe(204);
    app.closedAttempts.add(attempt.claims.sub);
    expect(await app.jobs.reapVolumes()).not.toContain(volume!.Name);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await app.jobs.reapVolumes()).toContain(volume!.Name);
    expect(await volumeExists(volume!.Name)).toBe(false);
  });

  it('gives a warm container a fresh volume that becomes the attempt’s on hand-out, and removes the volume of an unused warm container', async () => {
    const pooled: App = await buildTestApp({ socketPath: socketPath!, instance, env: { WARM_POOL_SIZE: '1' } });
    try {
      await pooled.jobs.refill();
      const attempt = newAttempt(pooled);
      const first = await create(pooled, attempt);
      expect(first.warm).toBe(true);
      await write(first.sessionId, 'warm.txt', 'from the warm container');
      expect((await beacon(pooled, first.sessionId, attempt.token)).statusCode).toBe(204);

      // The pool may hold another warm container now; the attempt still gets its own volume back.
      await pooled.jobs.refill();
      const again = await create(pooled, attempt);
      expect(again.warm).toBe(false);
      expect(await read(again.sessionId, 'warm.txt')).toBe('from the warm container');

      const [spare] = await docker.listContainers({
        filters: { label: ['exam.pool=warm', `exam.orchestrator=${instance}`] },
      });
      const spareId = spare!.Labels['exam.session-id']!;
      const spareVolume = spare!.Mounts.find((m) => m.Destination === '/home/coder/workspace')!.Name!;
      await docker.getContainer(spare!.Id).kill();
      expect(await pooled.jobs.reap()).toContain(spareId);
      expect(await volumeExists(spareVolume)).toBe(false);
    } finally {
      await pooled.close();
    }
  });
});
