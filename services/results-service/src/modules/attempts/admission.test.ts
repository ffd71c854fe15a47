import { TEST_SECRETS } from '@exam/server-kit/testing';
import { eq } from 'drizzle-orm';
import { attempts } from '../../db/schema.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam, makePointsExam } from '../../testing/exams.ts';
import { sitExam } from '../../testing/sitting.ts';

describe('admission by the exam’s access rules', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const start = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/attempts', payload });

  it('asks exam-service before a new attempt, passing the access code and invitation, and records the admitted name', async () => {
    const exam = app.exams.put(makeExam());
    app.access.rename(exam.id, 'R-1', 'Grace Hopper');
    const res = await start({
      examId: exam.id,
      name: 'G. H.',
      studentId: 'R-1',
      accessCode: 'open-sesame',
      inviteToken: 'tok',
    });
    expect(res.statusCode).toBe(201);
    expect(app.access.admitted.filter((a) => a.examId === exam.id)).toEqual([
      {
        examId: exam.id,
        candidate: { studentId: 'R-1', name: 'G. H.', accessCode: 'open-sesame', inviteToken: 'tok' },
      },
    ]);
    const token = res.json<{ token: string }>().token;
    const view = await app.inject({
      url: `/api/attempts/${res.json<{ attemptId: string }>().attemptId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(view.body).toContain('Grace Hopper');
  });

  it('refuses a start exam-service refuses with 403 naming the field, and creates no attempt', async () => {
    const exam = app.exams.put(makeExam());
    app.access.refuse(exam.id, { message: 'The access code is not right', field: 'accessCode' });
    const refused = await start({ examId: exam.id, name: 'Ada', studentId: 'C-1', accessCode: 'nope' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.issues).toEqual([{ path: 'accessCode', message: 'The access code is not right' }]);
    expect(await app.db.select().from(attempts).where(eq(attempts.examId, exam.id))).toEqual([]);
  });

  it('does not ask again when a candidate resumes the attempt they started', async () => {
    const exam = app.exams.put(makeExam());
    const first = await startAttempt(app, exam.id, { studentId: 'C-2' });
    const asked = app.access.admitted.length;
    const resumed = await start({ examId: exam.id, name: 'Ada', studentId: 'C-2', resumeSecret: first.resumeSecret });
    expect(resumed.statusCode).toBe(201);
    expect(app.access.admitted.length).toBe(asked);
  });

  it('tells exam-service who has submitted, to the internal token only', async () => {
    const exam = app.exams.put(makeExam());
    await sitExam(app, exam.id, {}, { studentId: ' Sub-1 ' });
    await startAttempt(app, exam.id, { studentId: 'Open-1' });
    const url = `/internal/exams/${exam.id}/submitted-candidates`;
    expect((await app.inject({ url })).statusCode).toBe(401);
    const listed = await app.inject({ url, headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN } });
    expect(listed.json()).toEqual({ candidateKeys: ['sub-1'] });
  });

  it('asks exam-service to notify released candidates, and a failure there does not fail the release', async () => {
    const exam = app.exams.put(makePointsExam());
    const owner = creatorHeaders(app, exam.ownerId);
    const sat = await sitExam(app, exam.id, { 0: 'a' }, { studentId: 'Rel-1' });
    await app.inject({
      method: 'PATCH',
      url: `/api/results/${sat.resultId}`,
      headers: owner,
      payload: { grading: [2, 3].map((questionIndex) => ({ questionIndex, points: 1 })) },
    });
    app.access.down = true;
    const released = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/release`,
      headers: owner,
      payload: { released: true },
    });
    expect(released.statusCode).toBe(200);
    expect(released.json()).toMatchObject({ changed: 1 });
    await app.releaseNotices.drain();
    expect(app.access.released.filter((r) => r.examId === exam.id)).toEqual([]);

    app.access.down = false;
    const again = await app.inject({
      method: 'POST',
      url: `/api/results/${sat.resultId}/release`,
      headers: owner,
      payload: { released: true },
    });
    expect(again.statusCode).toBe(200);
    await app.releaseNotices.drain();
    expect(app.access.released.filter((r) => r.examId === exam.id)).toEqual([
      { examId: exam.id, candidateKeys: ['rel-1'] },
    ]);
  });
});
