import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, newAttempt, type TestApp } from '../testing/app.ts';
import { defaultHostCapacity } from './workspace-jobs.ts';

const socketPath = inject('dockerSocket');

describe('defaultHostCapacity', () => {
  it('counts 256 MiB editors in 80 % of the memory, at least one', () => {
    expect(defaultHostCapacity(24 * 1024 ** 3)).toBe(76);
    expect(defaultHostCapacity(100 * 1024 ** 2)).toBe(1);
  });
});

describe.skipIf(!socketPath)('editors started before an availability window opens', () => {
  let app: TestApp & Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({
      socketPath: socketPath!,
      instance: inject('workspaceInstance'),
      env: { WARM_POOL_SIZE: '0', WORKSPACE_HOST_CAPACITY: '4', WARM_POOL_REFILL_DELAY_MS: '60000' },
    });
    // The test files share one database (on PostgreSQL, earlier runs' rows too): every session other files left
    // live is ended first, pool or assigned, so the pool counts and the host's capacity below are this file's own.
    for (const row of await app.workspaces.repo.listLive()) {
      await app.workspaces.repo.markEnded(row.id, new Date(), 'prewarm test: left by an earlier test');
    }
  });
  afterAll(() => app.close());

  const poolRows = async () =>
    (await app.workspaces.repo.listLive()).filter((row) => row.attemptId === null && row.status === 'warm');
  const create = async (attempt: ReturnType<typeof newAttempt>) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { sessionId: string; warm: boolean };
  };

  it('starts the expected candidates’ editors, hands them out warm, and does not replace the claimed ones', async () => {
    const first = newAttempt(app);
    const examId = first.claims.examId;
    app.demand.push({
      examId,
      workspaceType: 'vscode',
      egress: 'none',
      opensAt: new Date().toISOString(),
      candidates: 3,
    });
    expect(await app.jobs.refill()).toBe(3);
    expect(await poolRows()).toHaveLength(3);

    expect((await create(first)).warm).toBe(true);
    expect((await create(newAttempt(app, {}, first.claims.ownerId, examId))).warm).toBe(true);
    // Two of three arrived: the pool keeps the one left for the third and starts nothing.
    expect(await app.jobs.refill()).toBe(0);
    expect(await poolRows()).toHaveLength(1);
    expect((await create(newAttempt(app, {}, first.claims.ownerId, examId))).warm).toBe(true);
    expect(await app.jobs.refill()).toBe(0);
    expect(await poolRows()).toHaveLength(0);
    app.demand.length = 0;
  });

  it('never grows past the host’s capacity, and trims what the window no longer needs', async () => {
    const holder = newAttempt(app);
    expect((await create(holder)).warm).toBe(false);
    // 4 containers at most on this host, 1 of them held by a candidate (and 3 from the test before).
    const live = (await app.workspaces.repo.listLive()).filter((row) => row.attemptId !== null).length;
    const examId = newAttempt(app).claims.examId;
    app.demand.push({
      examId,
      workspaceType: 'vscode',
      egress: 'none',
      opensAt: new Date().toISOString(),
      candidates: 10,
    });
    expect(await app.jobs.refill()).toBe(Math.max(0, 4 - live));
    expect(await poolRows()).toHaveLength(Math.max(0, 4 - live));

    // The demand is gone (the window's grace passed): the pre-started editors are ended.
    app.demand.length = 0;
    expect(await app.jobs.refill()).toBe(0);
    expect(await poolRows()).toHaveLength(0);
  });

  it('leaves exams that allow package registries to cold starts', async () => {
    const examId = newAttempt(app, { allowPackageRegistries: true }).claims.examId;
    app.demand.push({
      examId,
      workspaceType: 'vscode',
      egress: 'registries',
      opensAt: new Date().toISOString(),
      candidates: 2,
    });
    expect(await app.jobs.refill()).toBe(0);
    app.demand.length = 0;
  });
});
