import { PreviewMessages } from '@exam/domain/public-exam';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCreator,
  createExam,
  examBody,
  handSignedToken,
  TEST_PASSWORD,
  type TestApp,
} from '../../testing/app.ts';
import { PREVIEW_AUDIENCE, previewKeyOf } from './preview-token.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;

describe('creator preview tokens', () => {
  let app: TestApp;
  let owner: Creator;
  let other: Creator;
  // A clock the tests move, so a token can be read just before and just after it expires.
  let now = new Date();
  beforeAll(async () => {
    app = await buildTestApp({ env: { PREVIEW_TOKEN_TTL_SECONDS: '600' }, deps: { clock: { now: () => now } } });
    owner = await createCreator(app);
    other = await createCreator(app);
  });
  afterAll(() => app.close());

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const askToken = (examId: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: `/api/exams/${examId}/preview-token`, headers });
  const readPreview = (examId: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `/api/public/exams/${examId}/preview`, headers });
  async function tokenFor(examId: string): Promise<string> {
    const response = await askToken(examId, owner.headers);
    expect(response.statusCode).toBe(201);
    return (response.json() as { token: string }).token;
  }
  /** Refused with the status, and not one word of the exam's questions or title in the answer. */
  function expectRefused(response: Awaited<ReturnType<typeof readPreview>>, status: number) {
    expect(response.statusCode).toBe(status);
    expect(response.body).not.toContain('Powerhouse of the cell');
    expect(response.body).not.toContain('Cell biology');
  }

  it('gives the owner a token that expires in PREVIEW_TOKEN_TTL_SECONDS and reads the exam in any state', async () => {
    now = new Date();
    const draft = await createExam(app, owner.headers);
    const offline = await createExam(app, owner.headers, { isDraft: false });
    for (const exam of [draft, offline]) {
      const issued = await askToken(exam.id, owner.headers);
      expect(issued.statusCode).toBe(201);
      const { token, expiresAt } = issued.json() as { token: string; expiresAt: string };
      expect(Date.parse(expiresAt) - now.getTime()).toBeGreaterThan(599_000);
      expect(Date.parse(expiresAt) - now.getTime()).toBeLessThanOrEqual(600_000);

      const preview = await readPreview(exam.id, bearer(token));
      expect(preview.statusCode).toBe(200);
      expect(preview.headers['cache-control']).toBe('no-store');
      const body = preview.json();
      expect(body.id).toBe(exam.id);
      expect(body.questions.map((q: { title: string }) => q.title)).toEqual([
        'Powerhouse of the cell',
        'Name the pigment',
        'Upload your lab report',
      ]);
      // As the candidate sees it: no answer keys.
      expect(preview.body).not.toContain('correctAnswer');
      expect(preview.body).not.toContain('ACCEPTED-CANARY');
    }
  });

  it('refuses a token to anyone but the owner', async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false });
    expect((await askToken(exam.id)).statusCode).toBe(401);
    const byOther = await askToken(exam.id, other.headers);
    expect(byOther.statusCode).toBe(404);
    expect(byOther.body).not.toContain('token');
    expect((await askToken('no-such-exam', owner.headers)).statusCode).toBe(404);
  });

  it('refuses the preview without a token, with a forged one, and with ?creator=true', async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false, isLive: true });
    const anonymous = await readPreview(exam.id);
    expectRefused(anonymous, 401);
    expect(anonymous.json().error.message).toBe(PreviewMessages.missing);
    const flagged = await app.inject({ method: 'GET', url: `/api/public/exams/${exam.id}/preview?creator=true` });
    expectRefused(flagged, 401);
    expectRefused(await readPreview(exam.id, bearer(`${await tokenFor(exam.id)}x`)), 401);
  });

  it('refuses an expired token', async () => {
    now = new Date();
    const exam = await createExam(app, owner.headers, { isDraft: false });
    const token = await tokenFor(exam.id);
    now = new Date(now.getTime() + 599_000);
    expect((await readPreview(exam.id, bearer(token))).statusCode).toBe(200);
    now = new Date(now.getTime() + 2_000);
    const expired = await readPreview(exam.id, bearer(token));
    expectRefused(expired, 401);
    expect(expired.json().error.message).toBe(PreviewMessages.invalid);
    now = new Date();
  });

  it("refuses a token for another exam, even another of the owner's", async () => {
    const mine = await createExam(app, owner.headers, { isDraft: false, title: 'Token exam' });
    const another = await createExam(app, owner.headers, { isDraft: false });
    const response = await readPreview(another.id, bearer(await tokenFor(mine.id)));
    expectRefused(response, 403);
    expect(response.json().error.message).toBe(PreviewMessages.otherExam);
  });

  it('refuses a creator token as a preview token', async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false });
    expectRefused(await readPreview(exam.id, owner.headers), 401);
    // Even one that carries the preview claims but is signed with the creator tokens' key.
    const now = Math.floor(Date.now() / 1000);
    const lookalike = handSignedToken({
      typ: PREVIEW_AUDIENCE,
      aud: PREVIEW_AUDIENCE,
      sub: exam.id,
      ownerId: owner.user.id,
      iat: now,
      exp: now + 60,
    });
    expectRefused(await readPreview(exam.id, bearer(lookalike)), 401);
  });

  it('reads the exam only while it belongs to the creator named in the token', async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false });
    const seconds = Math.floor(now.getTime() / 1000);
    const claims = {
      typ: PREVIEW_AUDIENCE,
      aud: PREVIEW_AUDIENCE,
      sub: exam.id,
      sid: owner.sid,
      iat: seconds,
      exp: seconds + 60,
    };
    const key = previewKeyOf(TEST_SECRETS.JWT_SECRET);
    expect(
      (await readPreview(exam.id, bearer(handSignedToken({ ...claims, ownerId: owner.user.id }, key)))).statusCode,
    ).toBe(200);
    expectRefused(
      await readPreview(exam.id, bearer(handSignedToken({ ...claims, ownerId: other.user.id, sid: other.sid }, key))),
      404,
    );
  });

  it('stops a preview token when the session that bought it signs out, while one from another session goes on', async () => {
    const creator = await createCreator(app);
    const exam = await createExam(app, creator.headers, { isDraft: false });
    const second = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: TEST_PASSWORD },
    });
    expect(second.statusCode).toBe(200);
    const secondHeaders = bearer((second.json() as { token: string }).token);
    const ask = async (headers: Record<string, string>) =>
      ((await askToken(exam.id, headers)).json() as { token: string }).token;
    const first = await ask(creator.headers);
    const other = await ask(secondHeaders);
    expect((await readPreview(exam.id, bearer(first))).statusCode).toBe(200);

    expect((await app.inject({ method: 'POST', url: '/api/auth/logout', headers: creator.headers })).statusCode).toBe(
      200,
    );
    const afterSignOut = await readPreview(exam.id, bearer(first));
    expectRefused(afterSignOut, 401);
    expect(afterSignOut.json().error.message).toBe(PreviewMessages.invalid);
    expect((await readPreview(exam.id, bearer(other))).statusCode).toBe(200);

    await app.inject({ method: 'POST', url: '/api/auth/logout-all', headers: secondHeaders });
    expectRefused(await readPreview(exam.id, bearer(other)), 401);
  });

  it('cannot write or list anything: every creator route refuses the preview token', async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false });
    const headers = bearer(await tokenFor(exam.id));
    const calls = [
      { method: 'POST' as const, url: '/api/exams', payload: examBody() },
      { method: 'GET' as const, url: '/api/exams/auth_exams' },
      { method: 'GET' as const, url: `/api/exams/${exam.id}` },
      { method: 'PUT' as const, url: `/api/exams/${exam.id}`, payload: { title: 'Changed by a preview' } },
      { method: 'DELETE' as const, url: `/api/exams/${exam.id}` },
      { method: 'POST' as const, url: `/api/exams/${exam.id}/preview-token` },
      { method: 'GET' as const, url: '/api/materials' },
    ];
    for (const call of calls) {
      const response = await app.inject({ ...call, headers });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
    }
    const still = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(still.json().title).toBe('Cell biology midterm');
    expect((await app.inject({ method: 'GET', url: '/api/exams/auth_exams', headers: owner.headers })).statusCode).toBe(
      200,
    );
  });
});
