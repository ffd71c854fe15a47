import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const INTERNAL = { 'x-internal-token': 'test-internal-token-that-is-long-enough-0123456789' };

describe('question display option', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  const put = (id: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'PUT', url: `/api/exams/${id}`, headers: owner.headers, payload });

  it('reads as all for an exam created without it', async () => {
    const exam = await createExam(app, owner.headers);
    expect(exam.questionDisplay).toBe('all');
  });

  it('stores one question at a time and gives it to the candidate and the other services', async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false, questionDisplay: 'one' });
    expect(exam.questionDisplay).toBe('one');
    await put(exam.id, { isLive: true });
    const publicView = await app.inject({ method: 'GET', url: `/api/public/exams/${exam.id}` });
    expect(publicView.statusCode).toBe(200);
    expect(publicView.json().questionDisplay).toBe('one');
    const internal = await app.inject({ method: 'GET', url: `/internal/exams/${exam.id}`, headers: INTERNAL });
    expect(internal.json().questionDisplay).toBe('one');
  });

  it('changes with an update and keeps the rest of the exam', async () => {
    const exam = await createExam(app, owner.headers, { questionDisplay: 'one' });
    const response = await put(exam.id, { questionDisplay: 'all' });
    expect(response.statusCode).toBe(200);
    const stored = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(stored.json()).toMatchObject({ questionDisplay: 'all', title: exam.title, questions: exam.questions });
  });

  it('refuses an unknown value with 400 naming the field, leaving the stored choice', async () => {
    const exam = await createExam(app, owner.headers, { questionDisplay: 'one' });
    const response = await put(exam.id, { questionDisplay: 'paged' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues.map((i: { path: string }) => i.path)).toEqual(['questionDisplay']);
    const stored = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(stored.json().questionDisplay).toBe('one');
  });

  it("does not let another creator change an exam's display", async () => {
    const exam = await createExam(app, owner.headers);
    const stranger = await createCreator(app);
    const response = await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}`,
      headers: stranger.headers,
      payload: { questionDisplay: 'one' },
    });
    expect(response.statusCode).toBe(404);
    const stored = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(stored.json().questionDisplay).toBe('all');
  });
});
