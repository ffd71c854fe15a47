import { ResumeMessages } from '@exam/domain/attempt-binding';
import { WindowMessages } from '@exam/domain/cohort';
import type { InternalExam } from '@exam/domain/internal';
import type { ResultSummary } from '@exam/domain/result';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makePointsExam } from '../../testing/exams.ts';

describe('attempts allowed and the grade kept', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const post = (examId: string, studentId: string, proof: { resumeSecret?: string; resumeCode?: string } = {}) =>
    app.inject({ method: 'POST', url: '/api/attempts', payload: { examId, name: 'Ada', studentId, ...proof } });

  /** One attempt: 'a' on the 2-point question when `right`, nothing otherwise; then submitted. */
  async function sit(examId: string, studentId: string, right: boolean, proof: { resumeSecret?: string } = {}) {
    const attempt = await startAttempt(app, examId, { studentId, ...proof });
    if (right) {
      const saved = await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/0`,
        headers: attempt.headers,
        payload: { answer: 'a', seq: 1 },
      });
      expect(saved.statusCode).toBe(200);
    }
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submitted.statusCode).toBe(200);
    return attempt;
  }

  /** Three attempts of one candidate scoring 0, 2 and 0 points, each started with the previous one's secret. */
  async function threeAttempts(exam: InternalExam, studentId: string) {
    const first = await sit(exam.id, studentId, false);
    const second = await sit(exam.id, studentId, true, { resumeSecret: first.resumeSecret! });
    const third = await sit(exam.id, studentId, false, { resumeSecret: second.resumeSecret! });
    return [first, second, third];
  }

  const listOf = async (exam: InternalExam) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/results?examId=${exam.id}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ results: ResultSummary[] }>().results;
  };
  const keptOf = async (exam: InternalExam) =>
    (await listOf(exam)).filter((r) => r.kept).map((r) => ({ studentId: r.studentId, attemptNo: r.attemptNo }));

  it('starts a further attempt after a submitted one while attempts are left, then refuses with 409', async () => {
    const exam = app.exams.put(makePointsExam({ attemptsAllowed: 2 }));
    const first = await sit(exam.id, 'S-two', false);
    const second = await post(exam.id, 'S-two', { resumeSecret: first.resumeSecret! });
    expect(second.statusCode).toBe(201);
    expect(second.json().attemptId).not.toBe(first.attemptId);
    expect(second.json()).toMatchObject({ resumed: false, resumeCode: expect.any(String) });
    // A reload resumes the second attempt with its own secret.
    const again = await post(exam.id, 'S-two', { resumeSecret: second.json().resumeSecret });
    expect(again.json()).toMatchObject({ attemptId: second.json().attemptId, resumed: true });
    await app.inject({
      method: 'POST',
      url: `/api/attempts/${second.json().attemptId}/submit`,
      headers: { authorization: `Bearer ${second.json().token}` },
    });
    const third = await post(exam.id, 'S-two', { resumeSecret: second.json().resumeSecret });
    expect(third.statusCode).toBe(409);
    expect(third.json().error.message).toBe(WindowMessages.noAttemptsLeft);
  });

  it('refuses a further attempt without the proof a resume needs, so nobody else spends it', async () => {
    const exam = app.exams.put(makePointsExam({ attemptsAllowed: 3 }));
    const first = await sit(exam.id, 'S-proof', false);
    const stranger = await post(exam.id, 'S-proof');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error.issues).toEqual([{ path: 'resumeCode', message: ResumeMessages.required }]);
    expect((await post(exam.id, 'S-proof', { resumeCode: 'ZZZZZZZZ' })).statusCode).toBe(403);
    expect(await listOf(exam)).toHaveLength(1);
    // The resume code of the previous attempt, typed on another device, proves it.
    expect((await post(exam.id, 'S-proof', { resumeCode: first.resumeCode! })).statusCode).toBe(201);
  });

  it("lets the examiner's unlock of a submitted attempt start the next one", async () => {
    const exam = app.exams.put(makePointsExam({ attemptsAllowed: 2 }));
    await sit(exam.id, 'S-unlocked', false);
    const unlock = await app.inject({
      method: 'POST',
      url: '/api/attempts/unlock',
      headers: creatorHeaders(app, exam.ownerId),
      payload: { examId: exam.id, studentId: 'S-unlocked' },
    });
    expect(unlock.statusCode).toBe(200);
    // The candidate ID alone starts nothing; the one-time code the examiner hands over does.
    expect((await post(exam.id, 'S-unlocked')).statusCode).toBe(403);
    const next = await post(exam.id, 'S-unlocked', { resumeCode: unlock.json<{ unlockCode: string }>().unlockCode });
    expect(next.statusCode).toBe(201);
    expect(next.json().resumed).toBe(false);
  });

  it('gives a candidate the extra attempts of their override', async () => {
    const exam = app.exams.put(makePointsExam());
    const first = await sit(exam.id, 'S-extra', false);
    expect((await post(exam.id, 'S-extra', { resumeSecret: first.resumeSecret! })).statusCode).toBe(409);
    await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}/overrides/S-extra`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: { attemptsAllowed: 2 },
    });
    expect((await post(exam.id, 'S-extra', { resumeSecret: first.resumeSecret! })).statusCode).toBe(201);
  });

  it('keeps the highest, the last or the first result as keepGrade says, listing the others as not kept', async () => {
    const exam = app.exams.put(makePointsExam({ attemptsAllowed: 3, keepGrade: 'highest' }));
    await threeAttempts(exam, 'S-keep');
    await sit(exam.id, 'S-once', false);

    const listed = await listOf(exam);
    expect(listed.map((r) => [r.studentId, r.attemptNo, r.kept, r.score])).toEqual([
      ['S-once', 1, true, 0],
      ['S-keep', 3, false, 0],
      ['S-keep', 2, true, 2],
      ['S-keep', 1, false, 0],
    ]);

    // Equal percentages keep the earlier attempt.
    const tie = app.exams.put(makePointsExam({ attemptsAllowed: 2, keepGrade: 'highest' }));
    const first = await sit(tie.id, 'S-tie', true);
    await sit(tie.id, 'S-tie', true, { resumeSecret: first.resumeSecret! });
    expect(await keptOf(tie)).toEqual([{ studentId: 'S-tie', attemptNo: 1 }]);

    // A rule the creator changes later applies at the next read.
    app.exams.put({ ...exam, keepGrade: 'last' });
    expect(await keptOf(exam)).toEqual([
      { studentId: 'S-once', attemptNo: 1 },
      { studentId: 'S-keep', attemptNo: 3 },
    ]);
    app.exams.put({ ...exam, keepGrade: 'first' });
    expect(await keptOf(exam)).toEqual([
      { studentId: 'S-once', attemptNo: 1 },
      { studentId: 'S-keep', attemptNo: 1 },
    ]);
  });

  it('counts one result per candidate in the CSV, the summary and insights', async () => {
    const exam = app.exams.put(makePointsExam({ attemptsAllowed: 3, keepGrade: 'highest' }));
    await threeAttempts(exam, 'S-csv');
    const headers = creatorHeaders(app, exam.ownerId);

    const csv = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/results.csv`, headers });
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('S-csv');
    expect(lines[1]).toContain(',2,10,20,');

    // The gradebook keeps the same attempt (the second, the highest) with its points under the exam's titles.
    const book = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results.csv?format=gradebook`,
      headers,
    });
    const rows = book.body.trim().split('\r\n');
    expect(rows[0]).toBe(
      'Name,Candidate ID,Q1 Pick one (2 pts),Q2 Tick all (3 pts),Q3 Your view (1 pt),Q4 Essay (4 pts),Total,Max,Percentage,Status,Submitted at',
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^[^,]+,S-csv,2,0,[^,]*,[^,]*,[^,]*,10,/);
    app.exams.put({ ...exam, keepGrade: 'last' });
    const last = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results.csv?format=gradebook`,
      headers,
    });
    expect(last.body.trim().split('\r\n')[1]).toMatch(/^[^,]+,S-csv,0,0,[^,]*,[^,]*,[^,]*,10,/);
    app.exams.put({ ...exam, keepGrade: 'highest' });

    const summary = await app.inject({ method: 'GET', url: '/api/results/summary', headers });
    expect(summary.json().exams).toEqual([
      expect.objectContaining({ examId: exam.id, started: 1, submitted: 1, avgScore: null, pending: 1 }),
    ]);

    const insights = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/insights`, headers });
    expect(insights.statusCode).toBe(200);
    const report = insights.json();
    expect(report.cohort).toMatchObject({ started: 1, submitted: 1 });
    expect(report.candidates).toHaveLength(1);
    expect(report.candidates[0].result).toMatchObject({ score: 2, maxScore: 10 });
  });
});
