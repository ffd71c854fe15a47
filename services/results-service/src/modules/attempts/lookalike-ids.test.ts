import { ResumeMessages } from '@exam/domain/attempt-binding';
import type { ResultSummary } from '@exam/domain/result';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { makePointsExam } from '../../testing/exams.ts';
import { sitExam } from '../../testing/sitting.ts';

describe('candidate IDs that look alike', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const post = (examId: string, studentId: string, name = 'Ada') =>
    app.inject({ method: 'POST', url: '/api/attempts', payload: { examId, name, studentId } });

  it.each([
    ['a zero-width space', 'S-1\u200b01'],
    ['a soft hyphen', 'S-\u00ad101'],
    ['a bidi isolate pair', '\u2066S-101\u2069'],
    ['a Cyrillic S', '\u0405-101'],
    ['a full-width ID', 'Ｓ－１０１'],
  ])('does not open a second attempt past attemptsAllowed for the same ID with %s', async (_, lookalike) => {
    const exam = app.exams.put(makePointsExam({ attemptsAllowed: 1 }));
    await sitExam(app, exam.id, {}, { studentId: 'S-101' });
    const again = await post(exam.id, lookalike);
    // The same candidate: a further attempt needs the same proof as a resume, and none is left anyway.
    expect(again.statusCode).toBe(403);
    expect(again.json().error.message).toBe(ResumeMessages.required);
    const results = await app.inject({
      url: `/api/results?examId=${exam.id}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(results.json<{ results: ResultSummary[] }>().results.map((r) => r.studentId)).toEqual(['S-101']);
  });

  it('stores the ID and name without invisible characters, so the results show what was compared', async () => {
    const exam = app.exams.put(makePointsExam());
    const sat = await sitExam(app, exam.id, {}, { studentId: ' S-\u200b202 ', name: 'Ada\u202e Love\u00adlace' });
    const view = await app.inject({ url: `/api/attempts/${sat.attempt.attemptId}`, headers: sat.attempt.headers });
    expect(view.json()).toMatchObject({ studentId: 'S-202', name: 'Ada Lovelace' });
  });

  it('refuses an ID of nothing but invisible characters with 400 naming studentId, and creates nothing', async () => {
    const exam = app.exams.put(makePointsExam());
    const refused = await post(exam.id, '\u200b\u200d\u00ad\u2060');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues).toEqual([{ path: 'studentId', message: 'Candidate ID is required' }]);
    const results = await app.inject({
      url: `/api/results?examId=${exam.id}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(results.json<{ results: ResultSummary[] }>().results).toEqual([]);
  });
});
