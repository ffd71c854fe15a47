import type { ExamAccess } from '@exam/domain/roles';
import { CAPABILITY_REFUSALS } from '@exam/domain/roles';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDockerEngine } from '../engine/docker-engine.ts';
import { buildTestApp, creatorToken, newAttempt, type TestApp } from '../testing/app.ts';
import { fakeEngine } from '../testing/fake-engine.ts';

type Who = 'owner' | 'editor-1' | 'grader-1' | 'grader-r' | 'proctor-1' | 'viewer-1' | 'stranger';
const EVERYONE: Who[] = ['owner', 'editor-1', 'grader-1', 'grader-r', 'proctor-1', 'viewer-1', 'stranger'];
const members = (): NonNullable<ExamAccess['members']> => [
  { creatorId: 'editor-1', role: 'editor', mayRelease: false },
  { creatorId: 'grader-1', role: 'grader', mayRelease: false },
  { creatorId: 'grader-r', role: 'grader', mayRelease: true },
  { creatorId: 'proctor-1', role: 'proctor', mayRelease: false },
  { creatorId: 'viewer-1', role: 'viewer', mayRelease: false },
];

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

type App = TestApp & Awaited<ReturnType<typeof buildTestApp>>;

/** An attempt at an exam shared with one member per role, and each creator's headers. */
function sharedAttempt(app: App) {
  const attempt = newAttempt(app);
  app.examAccess.set(attempt.claims.examId, { ownerId: attempt.claims.ownerId, members: members() });
  const headersOf = (who: Who) => creatorToken(app, who === 'owner' ? attempt.claims.ownerId : who);
  return { attempt, headersOf };
}

async function statuses(
  request: (who: Who) => Promise<{ statusCode: number; json: () => unknown }>,
  who: Who[] = EVERYONE,
) {
  const out: Partial<Record<Who, unknown>> = {};
  for (const w of who) out[w] = (await request(w)).statusCode;
  return out;
}

describe('roles on a shared exam in workspace-orchestrator', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp({
      socketPath: '/nonexistent/docker.sock',
      instance: 'none',
      deps: { engines: [noEngine()] },
    });
  });
  afterAll(() => app.close());

  it("tells the roles that read results why a candidate's workspace failed, refuses the others, and tells strangers nothing", async () => {
    const { attempt, headersOf } = sharedAttempt(app);
    await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} });
    const failure = (who: Who) =>
      app.inject({
        method: 'GET',
        url: `/api/session/attempts/${attempt.claims.sub}/start-failure`,
        headers: headersOf(who),
      });
    expect(await statuses(failure)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 200,
      'grader-r': 200,
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 200,
    });
    expect((await failure('grader-1')).json()).toMatchObject({
      failure: { attemptId: attempt.claims.sub, failures: 1 },
    });
    expect((await failure('proctor-1')).json()).toMatchObject({
      error: { code: 'FORBIDDEN', message: CAPABILITY_REFUSALS['results:read'] },
    });
    expect((await failure('stranger')).json()).toEqual({ failure: null });
  });

  it("runs a reference solution for an exam only for the roles that edit it (404 for a stranger's exam)", async () => {
    const { attempt, headersOf } = sharedAttempt(app);
    const reference = (who: Who) =>
      app.inject({
        method: 'POST',
        url: '/api/runner/reference',
        headers: headersOf(who),
        payload: {
          examId: attempt.claims.examId,
          language: 'python',
          code: 'print(input())',
          tests: [{ id: 't1', stdin: 'abc', expected: 'abc', points: 1 }],
          limits: {},
        },
      });
    const refused = await statuses(reference, ['grader-1', 'proctor-1', 'viewer-1', 'stranger']);
    expect(refused).toEqual({ 'grader-1': 403, 'proctor-1': 403, 'viewer-1': 403, stranger: 404 });
    expect((await reference('viewer-1')).json()).toMatchObject({
      error: { code: 'FORBIDDEN', message: CAPABILITY_REFUSALS['exam:edit'] },
    });
    // No runner is reachable here: the editor's and the owner's runs get past the access check to the runner.
    for (const who of ['owner', 'editor-1'] as const)
      expect([403, 404]).not.toContain((await reference(who)).statusCode);
  });
});

const socketPath = inject('dockerSocket');

describe.skipIf(!socketPath)("a shared exam's live workspace files", () => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp({ socketPath: socketPath!, instance: inject('workspaceInstance') });
  });
  afterAll(() => app.close());

  it('are read by the roles that read results; proctors and viewers are refused, strangers as another attempt', async () => {
    const { attempt, headersOf } = sharedAttempt(app);
    const session = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: attempt.headers, payload: {} })
    ).json<{ sessionId: string }>();
    const files = (who: Who) =>
      app.inject({ method: 'GET', url: `/api/session/${session.sessionId}/files`, headers: headersOf(who) });
    expect(await statuses(files)).toEqual({
      owner: 200,
      'editor-1': 200,
      'grader-1': 200,
      'grader-r': 200,
      'proctor-1': 403,
      'viewer-1': 403,
      stranger: 403,
    });
    expect((await files('viewer-1')).json()).toMatchObject({ error: { message: CAPABILITY_REFUSALS['results:read'] } });
    expect((await files('stranger')).json()).toMatchObject({
      error: { message: 'This session belongs to another attempt' },
    });
    await app.inject({ method: 'DELETE', url: `/api/session/${session.sessionId}`, headers: attempt.headers });
  });
});

describe("a creator's list of live sessions", () => {
  const engine = fakeEngine('roles-host');
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { engines: [engine.engine] } });
  });
  afterAll(() => app.close());

  it('lists the sessions of shared exams to the roles with the live view (editors, proctors), never to graders, viewers or strangers', async () => {
    const { attempt, headersOf } = sharedAttempt(app);
    const created = await app.inject({
      method: 'POST',
      url: '/api/session/create',
      headers: attempt.headers,
      payload: {},
    });
    expect(created.statusCode).toBe(200);
    const { sessionId } = created.json<{ sessionId: string }>();
    // Another owner's exam, shared with no one here: its session is listed only to that owner.
    const other = newAttempt(app);
    const otherSession = (
      await app.inject({ method: 'POST', url: '/api/session/create', headers: other.headers, payload: {} })
    ).json<{ sessionId: string }>().sessionId;

    const listed = async (who: Who) => {
      const response = await app.inject({ method: 'GET', url: '/api/sessions', headers: headersOf(who) });
      expect(response.statusCode).toBe(200);
      return response.json<{ sessions: { sessionId: string }[] }>().sessions.map((s) => s.sessionId);
    };
    const out: Partial<Record<Who, string[]>> = {};
    for (const who of EVERYONE) out[who] = await listed(who);
    expect(out).toEqual({
      owner: [sessionId],
      'editor-1': [sessionId],
      'grader-1': [],
      'grader-r': [],
      'proctor-1': [sessionId],
      'viewer-1': [],
      stranger: [],
    });
    const otherOwner = await app.inject({
      method: 'GET',
      url: '/api/sessions',
      headers: creatorToken(app, other.claims.ownerId),
    });
    expect(otherOwner.json<{ sessions: { sessionId: string }[] }>().sessions.map((s) => s.sessionId)).toEqual([
      otherSession,
    ]);

    // A member removed from the exam no longer sees its sessions.
    app.examAccess.set(attempt.claims.examId, {
      ownerId: attempt.claims.ownerId,
      members: members().filter((m) => m.creatorId !== 'proctor-1'),
    });
    expect(await listed('proctor-1')).toEqual([]);
    for (const a of [attempt, other])
      await app.inject({
        method: 'DELETE',
        url: `/api/session/${a === attempt ? sessionId : otherSession}`,
        headers: a.headers,
      });
  });
});
