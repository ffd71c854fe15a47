import { signLtiGrant } from '@exam/server-kit/lti-grant';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempts } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';

describe('starting an attempt with an LMS launch grant', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const lti = (sub: string) => ({
    platformId: 'platform-1',
    deploymentId: 'deployment-1',
    resourceLinkId: 'link-1',
    lineItemUrl: 'https://lms.example/lineitems/7',
    sub,
  });
  const grantFor = (examId: string, sub: string, opts: { secret?: string; ttlSeconds?: number; now?: Date } = {}) =>
    signLtiGrant(
      { examId, name: 'Ada Lovelace', studentId: sub, lti: lti(sub) },
      {
        jwtSecret: opts.secret ?? TEST_SECRETS.JWT_SECRET,
        ttlSeconds: opts.ttlSeconds ?? 600,
        now: opts.now ?? new Date(),
      },
    );
  const start = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/attempts', payload });

  it('names the candidate as the launch did, whatever the browser sends, skips admission and records the LMS link', async () => {
    const exam = app.exams.put(makeExam());
    app.access.refuse(exam.id, { message: 'Only candidates on this exam’s roster may start it.' });
    const ltiGrant = await grantFor(exam.id, 'lms-user-1');
    const briefing = await app.inject({
      method: 'POST',
      url: '/api/attempts/briefing',
      payload: { examId: exam.id, name: 'x', studentId: 'x', ltiGrant },
    });
    expect(briefing.statusCode).toBe(200);

    const res = await start({ examId: exam.id, name: 'Someone Else', studentId: 'other-id', ltiGrant });
    expect(res.statusCode).toBe(201);
    const [row] = await app.db
      .select()
      .from(attempts)
      .where(eq(attempts.id, res.json<{ attemptId: string }>().attemptId));
    expect(row).toMatchObject({ name: 'Ada Lovelace', studentId: 'lms-user-1', lti: lti('lms-user-1') });
    expect(app.access.admitted.filter((a) => a.examId === exam.id)).toEqual([]);
  });

  it('resumes the same attempt silently with the secret, the grant naming the same candidate', async () => {
    const exam = app.exams.put(makeExam());
    const ltiGrant = await grantFor(exam.id, 'lms-user-2');
    const first = await start({ examId: exam.id, name: 'a', studentId: 'b', ltiGrant });
    const again = await start({
      examId: exam.id,
      name: 'a',
      studentId: 'b',
      ltiGrant,
      resumeSecret: first.json<{ resumeSecret: string }>().resumeSecret,
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ attemptId: first.json<{ attemptId: string }>().attemptId, resumed: true });
  });

  it.each([
    [
      'signed with another secret',
      async (examId: string) => grantFor(examId, 'u', { secret: 'not-the-shared-secret-at-all' }),
    ],
    [
      'expired',
      async (examId: string) => grantFor(examId, 'u', { ttlSeconds: 60, now: new Date(Date.now() - 120_000) }),
    ],
    ['for another exam', async () => grantFor('another-exam', 'u')],
    ['not a grant at all', async () => 'garbage'],
  ])('refuses a grant %s with 400 on ltiGrant, and starts nothing', async (_label, make) => {
    const exam = app.exams.put(makeExam());
    const res = await start({ examId: exam.id, name: 'Ada', studentId: 'u', ltiGrant: await make(exam.id) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues).toEqual([
      { path: 'ltiGrant', message: 'This LMS launch has expired. Open the exam from your LMS again.' },
    ]);
    expect(await app.db.select().from(attempts).where(eq(attempts.examId, exam.id))).toEqual([]);
  });

  it('never takes a grant as a bearer token', async () => {
    const exam = app.exams.put(makeExam());
    const grant = await grantFor(exam.id, 'u');
    const res = await app.inject({ url: '/api/results', headers: { authorization: `Bearer ${grant}` } });
    expect(res.statusCode).toBe(401);
  });
});
