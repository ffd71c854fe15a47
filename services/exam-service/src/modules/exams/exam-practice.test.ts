import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

describe('practice exams and the review window', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  let other: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
    other = await createCreator(app);
  });
  afterAll(() => app.close());

  const put = (id: string, payload: Record<string, unknown>, headers = owner.headers) =>
    app.inject({ method: 'PUT', url: `/api/exams/${id}`, headers, payload });
  const review = { enabled: true, closesAt: '2026-12-20T12:00:00.000Z', showFeedback: false };

  it('keeps a new exam real with its review closed unless the creator says otherwise', async () => {
    const exam = await createExam(app, owner.headers);
    expect(exam).toMatchObject({
      practice: false,
      review: { enabled: false, closesAt: null, showFeedback: true },
    });
  });

  it('stores practice and the review window on create and update, and reads them back', async () => {
    const exam = await createExam(app, owner.headers, { practice: true, review });
    expect(exam).toMatchObject({ practice: true, review });
    const updated = await put(exam.id, { practice: false, review: { ...review, closesAt: null } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ practice: false, review: { ...review, closesAt: null } });
    const read = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(read.json()).toMatchObject({ practice: false, review: { enabled: true, closesAt: null } });
  });

  it('refuses a review that closes before the exam opens, naming the field, on create and on update', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/exams',
      headers: owner.headers,
      payload: { title: 'Optics', opensAt: '2026-12-21T09:00:00Z', review },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.issues[0].path).toBe('review.closesAt');

    const exam = await createExam(app, owner.headers, { opensAt: '2026-12-01T09:00:00Z' });
    const refused = await put(exam.id, { review: { ...review, closesAt: '2026-11-30T09:00:00Z' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues[0].path).toBe('review.closesAt');
    // Moving the opening past a stored review's close is refused the same way.
    expect((await put(exam.id, { review })).statusCode).toBe(200);
    const moved = await put(exam.id, { opensAt: '2026-12-22T09:00:00Z' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.issues[0].path).toBe('review.closesAt');
  });

  it("tells a candidate the exam is practice in the public summary, and leaves another creator's exam alone", async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false, practice: true });
    await put(exam.id, { isLive: true });
    const summary = await app.inject({ method: 'GET', url: `/api/public/exams/${exam.id}` });
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toMatchObject({ id: exam.id, practice: true });
    expect((await put(exam.id, { practice: false }, other.headers)).statusCode).toBe(404);
  });
});
