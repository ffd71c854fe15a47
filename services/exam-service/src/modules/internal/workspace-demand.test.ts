import { WorkspaceDemandSchema } from '@exam/domain/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const TOKEN = 'test-internal-token-that-is-long-enough-0123456789';
const internal = { 'x-internal-token': TOKEN };
const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe('GET /internal/workspace-demand', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  /** A published exam with a coding workspace, switched live unless told otherwise. */
  async function windowedExam(opts: { opensInMinutes: number; workspace?: Record<string, unknown>; live?: boolean }) {
    const exam = await createExam(app, owner.headers, {
      isDraft: false,
      opensAt: minutesFromNow(opts.opensInMinutes),
      codingWorkspace: { enabled: true, workspaceType: 'vscode', ...opts.workspace },
    });
    if (opts.live !== false) {
      const put = await app.inject({
        method: 'PUT',
        url: `/api/exams/${exam.id}`,
        headers: owner.headers,
        payload: { isLive: true },
      });
      expect(put.statusCode).toBe(200);
    }
    return exam.id;
  }
  const demand = async (query: string) => {
    const response = await app.inject({ method: 'GET', url: `/internal/workspace-demand?${query}`, headers: internal });
    expect(response.statusCode).toBe(200);
    return WorkspaceDemandSchema.parse(response.json()).demand;
  };

  it('asks for the larger of the roster and the expected cohort, for live windows opening within the horizon', async () => {
    const expected = await windowedExam({ opensInMinutes: 10, workspace: { expectedCandidates: 20 } });
    const rostered = await windowedExam({ opensInMinutes: 5, workspace: { allowPackageRegistries: true } });
    const csv = ['Name,Candidate ID', 'Ada Lovelace,S-1', 'Grace Hopper,S-2', 'Alan Turing,S-3'].join('\n');
    const imported = await app.inject({
      method: 'POST',
      url: `/api/exams/${rostered}/roster/import`,
      headers: owner.headers,
      payload: { csv },
    });
    expect(imported.statusCode).toBe(200);
    const later = await windowedExam({ opensInMinutes: 120, workspace: { expectedCandidates: 50 } });
    const offline = await windowedExam({ opensInMinutes: 10, workspace: { expectedCandidates: 9 }, live: false });
    const unsized = await windowedExam({ opensInMinutes: 10 });

    const within = await demand('horizonSeconds=900');
    const byExam = new Map(within.map((d) => [d.examId, d]));
    expect(byExam.get(expected)).toMatchObject({ candidates: 20, workspaceType: 'vscode', egress: 'none' });
    expect(byExam.get(rostered)).toMatchObject({ candidates: 3, egress: 'registries' });
    for (const id of [later, offline, unsized]) expect(byExam.has(id)).toBe(false);

    // A longer horizon reaches the later window; an opening past the grace no longer asks for any.
    expect((await demand('horizonSeconds=10800')).some((d) => d.examId === later)).toBe(true);
  });

  it('stops asking once the window opened longer ago than the grace', async () => {
    const opened = await windowedExam({ opensInMinutes: -20, workspace: { expectedCandidates: 5 } });
    expect((await demand('horizonSeconds=900&graceSeconds=600')).some((d) => d.examId === opened)).toBe(false);
    expect((await demand('horizonSeconds=900&graceSeconds=1800')).some((d) => d.examId === opened)).toBe(true);
  });

  it('refuses a bad horizon with the field, and a caller without the internal token', async () => {
    const bad = await app.inject({
      method: 'GET',
      url: '/internal/workspace-demand?horizonSeconds=-1',
      headers: internal,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('horizonSeconds');
    const anonymous = await app.inject({ method: 'GET', url: '/internal/workspace-demand?horizonSeconds=60' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses an expected cohort that is not a whole number of candidates', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/exams',
      headers: owner.headers,
      payload: { title: 'x', codingWorkspace: { enabled: true, expectedCandidates: 2.5 } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('codingWorkspace.expectedCandidates');
  });
});
