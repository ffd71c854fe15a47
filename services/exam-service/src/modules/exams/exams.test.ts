import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, examBody, type TestApp } from '../../testing/app.ts';

describe('exams API', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  let other: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
    other = await createCreator(app);
  });
  afterAll(() => app.close());

  it('creates a draft and answers 201 with the exam', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/exams',
      headers: owner.headers,
      payload: examBody(),
    });
    expect(response.statusCode).toBe(201);
    const { exam } = response.json();
    expect(exam).toMatchObject({
      title: 'Cell biology midterm',
      ownerId: owner.user.id,
      isDraft: true,
      isLive: false,
      publishedAt: null,
      timerMinutes: 45,
    });
    expect(exam.questions).toHaveLength(3);
    expect(exam.questions[0].correctAnswer).toBe('ANSWER-CANARY-mitochondria');
    expect(exam.aiSettings).toMatchObject({ hasApiKey: false, apiKeyLast4: null, courseMaterials: [] });
  });

  it('reads its own exam back as the exam object itself', async () => {
    const created = await createExam(app, owner.headers);
    const response = await app.inject({ method: 'GET', url: `/api/exams/${created.id}`, headers: owner.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it('lists only the caller’s exams, newest first', async () => {
    const creator = await createCreator(app);
    const first = await createExam(app, creator.headers, { title: 'first' });
    const second = await createExam(app, creator.headers, { title: 'second' });
    await createExam(app, other.headers, { title: 'someone else' });
    const response = await app.inject({ method: 'GET', url: '/api/exams/auth_exams', headers: creator.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json().exams.map((e: { id: string }) => e.id)).toEqual([second.id, first.id]);
  });

  it('deletes its own exam and answers its id, then the exam is gone', async () => {
    const created = await createExam(app, owner.headers);
    const response = await app.inject({ method: 'DELETE', url: `/api/exams/${created.id}`, headers: owner.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: created.id });
    expect(
      (await app.inject({ method: 'GET', url: `/api/exams/${created.id}`, headers: owner.headers })).statusCode,
    ).toBe(404);
  });

  describe('ownership', () => {
    it('returns 404 when another creator reads, updates, publishes, toggles or deletes the exam', async () => {
      const exam = await createExam(app, owner.headers);
      const url = `/api/exams/${exam.id}`;
      const attempts = [
        await app.inject({ method: 'GET', url, headers: other.headers }),
        await app.inject({ method: 'PUT', url, headers: other.headers, payload: { title: 'stolen' } }),
        await app.inject({ method: 'PUT', url, headers: other.headers, payload: { isDraft: false } }),
        await app.inject({ method: 'PUT', url, headers: other.headers, payload: { isLive: true } }),
        await app.inject({ method: 'DELETE', url, headers: other.headers }),
      ];
      for (const response of attempts) {
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('NOT_FOUND');
      }
      const after = (await app.inject({ method: 'GET', url, headers: owner.headers })).json();
      expect(after).toEqual(exam);
    });

    it('does not list another creator’s exam', async () => {
      const exam = await createExam(app, owner.headers);
      const list = (await app.inject({ method: 'GET', url: '/api/exams/auth_exams', headers: other.headers })).json();
      expect(list.exams.map((e: { id: string }) => e.id)).not.toContain(exam.id);
    });
  });

  describe('lifecycle', () => {
    it('publishes offline when created with isDraft false', async () => {
      const exam = await createExam(app, owner.headers, { isDraft: false });
      expect(exam).toMatchObject({ isDraft: false, isLive: false });
      expect(exam.publishedAt).toBe(exam.createdAt);
    });

    it('publishes a draft on PUT isDraft false, offline unless the body says live', async () => {
      const draft = await createExam(app, owner.headers);
      const published = (
        await app.inject({
          method: 'PUT',
          url: `/api/exams/${draft.id}`,
          headers: owner.headers,
          payload: { isDraft: false },
        })
      ).json();
      expect(published).toMatchObject({ isDraft: false, isLive: false, createdAt: draft.createdAt });
      expect(published.publishedAt).not.toBeNull();

      const other = await createExam(app, owner.headers);
      const live = (
        await app.inject({
          method: 'PUT',
          url: `/api/exams/${other.id}`,
          headers: owner.headers,
          payload: { isDraft: false, isLive: true },
        })
      ).json();
      expect(live).toMatchObject({ isDraft: false, isLive: true });
    });

    it('toggles a published exam live and keeps it live through later edits', async () => {
      const exam = await createExam(app, owner.headers, { isDraft: false });
      const url = `/api/exams/${exam.id}`;
      const live = await app.inject({ method: 'PUT', url, headers: owner.headers, payload: { isLive: true } });
      expect(live.json().isLive).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const edited = (
        await app.inject({
          method: 'PUT',
          url,
          headers: owner.headers,
          payload: { ...examBody({ title: 'Renamed' }), isDraft: false },
        })
      ).json();
      expect(edited).toMatchObject({
        title: 'Renamed',
        isLive: true,
        isDraft: false,
        createdAt: exam.createdAt,
        publishedAt: exam.publishedAt,
      });
      expect(Date.parse(edited.lastEditedAt)).toBeGreaterThan(Date.parse(exam.lastEditedAt as string));
      expect(edited.updatedAt).toBe(edited.lastEditedAt);
      const offline = (
        await app.inject({ method: 'PUT', url, headers: owner.headers, payload: { isLive: false } })
      ).json();
      expect(offline.isLive).toBe(false);
    });

    it('refuses to make a draft live', async () => {
      const draft = await createExam(app, owner.headers);
      const response = await app.inject({
        method: 'PUT',
        url: `/api/exams/${draft.id}`,
        headers: owner.headers,
        payload: { isLive: true },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.issues[0].path).toBe('isLive');
      expect(
        (await app.inject({ method: 'GET', url: `/api/exams/${draft.id}`, headers: owner.headers })).json(),
      ).toEqual(draft);
    });

    it('refuses to turn a published exam back into a draft', async () => {
      const exam = await createExam(app, owner.headers, { isDraft: false });
      const response = await app.inject({
        method: 'PUT',
        url: `/api/exams/${exam.id}`,
        headers: owner.headers,
        payload: { isDraft: true },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.issues[0].path).toBe('isDraft');
    });

    it('keeps a draft a draft when saved again', async () => {
      const draft = await createExam(app, owner.headers);
      const saved = (
        await app.inject({
          method: 'PUT',
          url: `/api/exams/${draft.id}`,
          headers: owner.headers,
          payload: { title: 'Still a draft' },
        })
      ).json();
      expect(saved).toMatchObject({
        title: 'Still a draft',
        isDraft: true,
        isLive: false,
        publishedAt: null,
        createdAt: draft.createdAt,
      });
    });
  });
});
