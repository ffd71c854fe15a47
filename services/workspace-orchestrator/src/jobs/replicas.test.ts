import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewWorkspace } from '../modules/sessions/sessions.repository.ts';
import { buildTestApp, newAttempt, TAKER_ORIGIN } from '../testing/app.ts';
import { fakeEngine } from '../testing/fake-engine.ts';

/**
 * Several orchestrator replicas on one database, each with a fake engine on a named host: what their
 * background jobs may decide about each other's workspaces.
 */
describe('orchestrator replicas on one database', () => {
  const apps: Awaited<ReturnType<typeof buildTestApp>>[] = [];
  const fakes: ReturnType<typeof fakeEngine>[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await Promise.all(fakes.splice(0).map((fake) => fake.engine.close()));
  });

  async function replica(host: string, env: Record<string, string> = {}) {
    const fake = fakeEngine(host);
    const app = await buildTestApp({ env, deps: { engines: [fake.engine] } });
    apps.push(app);
    fakes.push(fake);
    return { app, fake };
  }

  /** A session recorded as running on `host`, as another replica would have left it. */
  async function recordedSession(
    app: Awaited<ReturnType<typeof buildTestApp>>,
    host: string,
    changes: Partial<NewWorkspace> = {},
  ) {
    const attempt = newAttempt(app);
    const id = `replica-${randomUUID()}`;
    const now = new Date();
    const row = await app.workspaces.repo.insert({
      id,
      host,
      backend: 'docker',
      workspaceType: 'vscode',
      egress: 'none',
      status: 'ready',
      handle: `${host}-handle-${id}`,
      target: '10.0.0.1:8080',
      volume: `exam-ws-${id}`,
      attemptId: attempt.claims.sub,
      examId: attempt.claims.examId,
      ownerId: attempt.claims.ownerId,
      editorPassword: 'pw',
      editorCookie: 'cookie',
      createdAt: now,
      lastActivityAt: now,
      ...changes,
    });
    await app.workspaces.service.volumes.record(row);
    return row;
  }

  it('two pool refills racing on one host start the pool size between them, not twice over', async () => {
    const host = `host-${randomUUID()}`;
    const a = await replica(host, { WARM_POOL_SIZE: '2' });
    const b = await replica(host, { WARM_POOL_SIZE: '2' });
    const [fromA, fromB] = await Promise.all([a.app.jobs.refill(), b.app.jobs.refill()]);
    expect(fromA + fromB).toBe(2);
    expect(a.fake.started.length + b.fake.started.length).toBe(2);
    // Topped up already: another round on either replica starts nothing.
    expect(await Promise.all([a.app.jobs.refill(), b.app.jobs.refill()])).toEqual([0, 0]);
    expect(a.fake.started.length + b.fake.started.length).toBe(2);
  });

  it('keeps one pool per host: a replica on another host fills its own', async () => {
    const a = await replica(`host-${randomUUID()}`, { WARM_POOL_SIZE: '1' });
    const b = await replica(`host-${randomUUID()}`, { WARM_POOL_SIZE: '1' });
    expect(await Promise.all([a.app.jobs.refill(), b.app.jobs.refill()])).toEqual([1, 1]);
  });

  it("leaves another host's sessions alone at re-adoption, and ends its own whose container is gone", async () => {
    const hostA = `host-${randomUUID()}`;
    const b = await replica(`host-${randomUUID()}`);
    const theirs = await recordedSession(b.app, hostA);
    const mine = await recordedSession(b.app, await b.fake.engine.hostId());
    const adopted = await b.app.jobs.adopt();
    expect(adopted.ended).toContain(mine.id);
    expect(adopted.ended).not.toContain(theirs.id);
    expect((await b.app.workspaces.repo.find(theirs.id))?.endedAt).toBeNull();
    expect((await b.app.workspaces.repo.find(mine.id))?.endedAt).not.toBeNull();
  });

  it("leaves another host's sessions and volumes alone when reaping", async () => {
    const hostA = `host-${randomUUID()}`;
    const b = await replica(`host-${randomUUID()}`, { IDLE_TIMEOUT_SECONDS: '1' });
    const long = new Date(Date.now() - 60_000);
    const theirsIdle = await recordedSession(b.app, hostA, { lastActivityAt: long });
    const theirsRunning = await recordedSession(b.app, hostA);
    const mineIdle = await recordedSession(b.app, await b.fake.engine.hostId(), { lastActivityAt: long });
    const reaped = await b.app.jobs.reap();
    expect(reaped).toContain(mineIdle.id);
    expect(reaped).not.toContain(theirsIdle.id);
    expect(reaped).not.toContain(theirsRunning.id);

    // Their attempt closed and its files collected: only a replica on their host removes the volume.
    await b.app.workspaces.repo.markEnded(theirsIdle.id, new Date(), 'ended on its own host');
    await b.app.workspaces.repo.updateVolume(theirsIdle.volume!, { collectedAt: new Date() });
    b.app.closedAttempts.add(theirsIdle.attemptId!);
    expect(await b.app.jobs.reapVolumes()).not.toContain(theirsIdle.volume);
    expect((await b.app.workspaces.repo.findVolume(theirsIdle.volume!))?.removedAt).toBeNull();

    const a = await replica(hostA);
    a.app.closedAttempts.add(theirsIdle.attemptId!);
    expect(await a.app.jobs.reapVolumes()).toContain(theirsIdle.volume);
  });

  it('hands a session on another host back to its attempt instead of ending it', async () => {
    const b = await replica(`host-${randomUUID()}`);
    const attempt = newAttempt(b.app);
    const theirs = await recordedSession(b.app, `host-${randomUUID()}`, {
      attemptId: attempt.claims.sub,
      examId: attempt.claims.examId,
      ownerId: attempt.claims.ownerId,
    });
    const response = await b.app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().sessionId).toBe(theirs.id);
    expect(b.fake.started).toHaveLength(0);
  });

  it("ignores on replica B the old page's close beacon right after replica A handed the session to the reloaded page", async () => {
    const host = `host-${randomUUID()}`;
    const env = { WORKSPACE_PAGE_CLOSE_GRACE_MS: '60000' };
    const a = await replica(host, env);
    const b = await replica(host, env);
    const attempt = newAttempt(a.app);
    b.app.exams.set(attempt.claims.examId, a.app.exams.get(attempt.claims.examId)!);
    const create = await a.app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(create.statusCode).toBe(200);
    const sessionId = create.json().sessionId as string;
    const beacon = await b.app.inject({
      method: 'POST',
      url: `/api/session/${sessionId}/end`,
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: TAKER_ORIGIN },
      payload: attempt.token,
    });
    expect(beacon.statusCode).toBe(204);
    expect((await b.app.workspaces.repo.find(sessionId))?.endedAt).toBeNull();
    // An explicit end is not a page close: it ends the session at once, on any replica.
    expect(
      (await b.app.inject({ method: 'DELETE', url: `/api/session/${sessionId}`, headers: attempt.headers })).statusCode,
    ).toBe(204);
    expect((await a.app.workspaces.repo.find(sessionId))?.endedAt).not.toBeNull();
  });

  it("removes, on the session's own host, the container of a session another host's replica ended", async () => {
    const a = await replica(`host-${randomUUID()}`);
    const b = await replica(`host-${randomUUID()}`);
    const attempt = newAttempt(a.app);
    const create = await a.app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(create.statusCode).toBe(200);
    const sessionId = create.json().sessionId as string;
    expect(a.fake.containers.size).toBe(1);
    // The candidate's end lands on host B's replica: the row ends there, the container is out of its reach.
    const end = await b.app.inject({ method: 'DELETE', url: `/api/session/${sessionId}`, headers: attempt.headers });
    expect(end.statusCode).toBe(204);
    expect(a.fake.containers.size).toBe(1);
    await b.app.jobs.reap();
    expect(a.fake.containers.size).toBe(1);
    await a.app.jobs.reap();
    expect(a.fake.containers.size).toBe(0);
  });
});
