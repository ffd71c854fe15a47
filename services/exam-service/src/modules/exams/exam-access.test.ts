import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, examBody, handSignedToken, type TestApp } from '../../testing/app.ts';

describe('exam routes refuse callers without a valid creator token', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  let examId: string;
  const routes = () => [
    { method: 'POST' as const, url: '/api/exams', payload: examBody() },
    { method: 'GET' as const, url: '/api/exams/auth_exams' },
    { method: 'GET' as const, url: `/api/exams/${examId}` },
    { method: 'PUT' as const, url: `/api/exams/${examId}`, payload: { title: 'changed' } },
    { method: 'DELETE' as const, url: `/api/exams/${examId}` },
    { method: 'GET' as const, url: '/api/materials' },
  ];
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
    examId = (await createExam(app, owner.headers)).id;
  });
  afterAll(() => app.close());

  async function expectStatusEverywhere(authorization: string | undefined, status: number) {
    for (const route of routes()) {
      const response = await app.inject({ ...route, headers: authorization ? { authorization } : {} });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(status);
    }
    const still = await app.inject({ method: 'GET', url: `/api/exams/${examId}`, headers: owner.headers });
    expect(still.json().title).toBe('Cell biology midterm');
  }

  it('answers 401 when no token is sent', async () => {
    await expectStatusEverywhere(undefined, 401);
  });

  it('answers 401 when the token has expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = handSignedToken({
      kind: 'creator',
      sub: owner.user.id,
      email: owner.email,
      sid: owner.sid,
      iat: now - 7200,
      exp: now - 60,
    });
    await expectStatusEverywhere(`Bearer ${expired}`, 401);
  });

  it('accepts a hand-signed token that has not expired, so the expiry is what the previous test refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const valid = handSignedToken({
      kind: 'creator',
      sub: owner.user.id,
      email: owner.email,
      sid: owner.sid,
      iat: now,
      exp: now + 600,
    });
    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${examId}`,
      headers: { authorization: `Bearer ${valid}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 when the signature was tampered with', async () => {
    const last = owner.token.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${owner.token.slice(0, -2)}${last}${owner.token.at(-1)}`;
    await expectStatusEverywhere(`Bearer ${tampered}`, 401);
  });

  it('answers 401 when the claims were changed to another creator', async () => {
    const [header, , signature] = owner.token.split('.');
    const forgedClaims = Buffer.from(
      JSON.stringify({ kind: 'creator', sub: 'someone-else', email: 'x@example.test', sid: owner.sid }),
    ).toString('base64url');
    await expectStatusEverywhere(`Bearer ${header}.${forgedClaims}.${signature}`, 401);
  });

  it('answers 401 when the token was signed with another secret', async () => {
    const foreign = handSignedToken(
      { kind: 'creator', sub: owner.user.id, email: owner.email, sid: owner.sid },
      'another-secret-that-is-long-enough-0123456789',
    );
    await expectStatusEverywhere(`Bearer ${foreign}`, 401);
  });

  it('answers 403 when a candidate’s attempt token is used on creator routes', async () => {
    const attempt = handSignedToken({
      kind: 'attempt',
      sub: 'a1',
      examId,
      ownerId: owner.user.id,
      name: 'Ada',
      studentId: 's1',
    });
    await expectStatusEverywhere(`Bearer ${attempt}`, 403);
  });
});
