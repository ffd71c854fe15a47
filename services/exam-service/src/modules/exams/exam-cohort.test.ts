import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

describe('exam cohort settings', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  /** The exams results-service was asked to move the deadlines of; the first call fails, like a service down. */
  const moved: string[] = [];
  let failNext = false;
  beforeAll(async () => {
    app = await buildTestApp({
      deps: {
        attemptDeadlines: {
          async recompute(examId) {
            if (failNext) {
              failNext = false;
              throw new Error('results-service is unreachable');
            }
            moved.push(examId);
          },
        },
      },
    });
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  const put = (id: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'PUT', url: `/api/exams/${id}`, headers: owner.headers, payload });

  it('stores the window, attempts, access and order settings, with their defaults on a new exam', async () => {
    const exam = await createExam(app, owner.headers);
    expect(exam).toMatchObject({
      opensAt: null,
      closesAt: null,
      attemptsAllowed: 1,
      keepGrade: 'highest',
      shuffleQuestions: false,
      shuffleOptions: false,
      access: 'link',
      hasAccessCode: false,
      pools: [],
    });
    const response = await put(exam.id, {
      opensAt: '2026-12-01T10:00:00+01:00',
      closesAt: '2026-12-01T12:00:00+01:00',
      attemptsAllowed: 3,
      keepGrade: 'last',
      shuffleQuestions: true,
      shuffleOptions: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      opensAt: '2026-12-01T09:00:00.000Z',
      closesAt: '2026-12-01T11:00:00.000Z',
      attemptsAllowed: 3,
      keepGrade: 'last',
      shuffleQuestions: true,
      shuffleOptions: true,
    });
  });

  it('checks a new closing time against the stored opening time, and changes nothing when it is earlier', async () => {
    const exam = await createExam(app, owner.headers);
    expect((await put(exam.id, { opensAt: '2026-12-01T09:00:00Z' })).statusCode).toBe(200);
    const refused = await put(exam.id, { closesAt: '2026-12-01T08:00:00Z' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues[0].path).toBe('closesAt');
    const cleared = await put(exam.id, { opensAt: null, closesAt: '2026-12-01T08:00:00Z' });
    expect(cleared.json()).toMatchObject({ opensAt: null, closesAt: '2026-12-01T08:00:00.000Z' });
  });

  it('keeps the access code write-only: set, kept when omitted, cleared by null, never returned', async () => {
    const exam = await createExam(app, owner.headers);
    const set = await put(exam.id, { access: 'code', accessCode: 'open sesame' });
    expect(set.json()).toMatchObject({ access: 'code', hasAccessCode: true });
    expect(set.body).not.toContain('open sesame');
    expect((await put(exam.id, { title: 'Renamed' })).json().hasAccessCode).toBe(true);
    const refused = await put(exam.id, { accessCode: null });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues[0].path).toBe('accessCode');
    expect((await put(exam.id, { access: 'link', accessCode: null })).json()).toMatchObject({
      access: 'link',
      hasAccessCode: false,
    });
  });

  it('refuses access by code without a code, on a new exam and on an update', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/exams',
      headers: owner.headers,
      payload: { title: 'Coded', access: 'code' },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.issues[0].path).toBe('accessCode');
    const exam = await createExam(app, owner.headers);
    const updated = await put(exam.id, { access: 'code' });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().error.issues[0].path).toBe('accessCode');
  });

  it("asks results-service to move running attempts' deadlines when a published exam's window moves", async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false });
    moved.length = 0;
    await put(exam.id, { title: 'Same window' });
    expect(moved).toEqual([]);
    await put(exam.id, { closesAt: '2026-12-01T12:00:00Z' });
    await put(exam.id, { closesAt: '2026-12-01T12:00:00.000+00:00' });
    expect(moved).toEqual([exam.id]);
    // results-service down: the change is still saved.
    failNext = true;
    const saved = await put(exam.id, { closesAt: '2026-12-01T11:00:00Z' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().closesAt).toBe('2026-12-01T11:00:00.000Z');
  });

  it('checks pools against the stored questions when only the pools change', async () => {
    const exam = await createExam(app, owner.headers, {
      questions: [
        { id: 'a', type: 'short-answer', title: 'A', poolId: null },
        { id: 'b', type: 'short-answer', title: 'B', poolId: null },
      ],
    });
    // A pool no question belongs to cannot draw anything.
    const refused = await put(exam.id, { pools: [{ id: 'p', title: 'Cells', draw: 1, points: 2 }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues[0].path).toBe('pools.0.draw');
  });
});
