import { ExamGrantsSchema, InternalExamSchema } from '@exam/domain/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const TOKEN = 'test-internal-token-that-is-long-enough-0123456789';

describe('internal exam route', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  it('answers the whole exam with answer keys to another service', async () => {
    const exam = await createExam(app, owner.headers, { aiSettings: { apiKey: 'sk-internal-test-key' } });
    const response = await app.inject({
      method: 'GET',
      url: `/internal/exams/${exam.id}`,
      headers: { 'x-internal-token': TOKEN },
    });
    expect(response.statusCode).toBe(200);
    const body = InternalExamSchema.parse(response.json());
    expect(body.questions[0]!.correctAnswer).toBe('ANSWER-CANARY-mitochondria');
    expect(body.questions[1]!.acceptedAnswers).toEqual(['ACCEPTED-CANARY-chlorophyll']);
    expect(body.aiSettings.encryptedApiKey).toMatch(/^v1\./);
    expect(response.body).not.toContain('sk-internal-test-key');
    expect(body.materialTexts).toEqual([]);
  });

  it("serves an exam's members with it, and each creator's grants, for the other services' role checks", async () => {
    const exam = await createExam(app, owner.headers);
    const grader = await createCreator(app);
    const shared = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/members`,
      headers: owner.headers,
      payload: { email: grader.email, role: 'grader', mayRelease: true },
    });
    expect(shared.statusCode).toBeLessThan(300);
    const internal = InternalExamSchema.parse(
      (
        await app.inject({ method: 'GET', url: `/internal/exams/${exam.id}`, headers: { 'x-internal-token': TOKEN } })
      ).json(),
    );
    expect(internal.members).toEqual([
      { creatorId: grader.user.id, email: grader.email, role: 'grader', mayRelease: true },
    ]);
    const grants = (id: string, headers: Record<string, string> = { 'x-internal-token': TOKEN }) =>
      app.inject({ method: 'GET', url: `/internal/creators/${id}/exam-grants`, headers });
    expect(ExamGrantsSchema.parse((await grants(grader.user.id)).json())).toEqual({
      grants: [{ examId: exam.id, role: 'grader', mayRelease: true }],
    });
    // The owner's own exams are not grants; a creator token is no internal token.
    expect((await grants(owner.user.id)).json()).toEqual({ grants: [] });
    expect((await grants(grader.user.id, grader.headers)).statusCode).toBe(401);
  });

  it('refuses a request without the internal token or with a wrong one', async () => {
    const exam = await createExam(app, owner.headers);
    const url = `/internal/exams/${exam.id}`;
    for (const headers of [{}, { 'x-internal-token': 'wrong' }, { 'x-internal-token': `${TOKEN}x` }, owner.headers]) {
      const response = await app.inject({ method: 'GET', url, headers });
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toContain('ANSWER-CANARY');
    }
  });

  it('answers 404 for an unknown exam', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/internal/exams/no-such-exam',
      headers: { 'x-internal-token': TOKEN },
    });
    expect(response.statusCode).toBe(404);
  });
});
