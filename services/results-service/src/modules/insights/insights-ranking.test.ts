import { InsightsReportSchema } from '@exam/domain/insights';
import { buildInternalExam } from '@exam/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';

/** Eleven points: one question worth 6, five worth 1 each. */
const QUESTIONS = [
  { id: 'big', type: 'short-answer', title: 'Design the experiment', acceptedAnswers: ['six'], points: 6 },
  ...[1, 2, 3, 4, 5].map((n) => ({
    id: `small${n}`,
    type: 'short-answer',
    title: `Recall ${n}`,
    acceptedAnswers: [`one${n}`],
    points: 1,
  })),
];

describe('the insights ranking', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  async function sit(examId: string, name: string, answers: Record<number, string>) {
    const attempt = await startAttempt(app, examId, { name });
    for (const [index, answer] of Object.entries(answers)) {
      await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
        headers: attempt.headers,
        payload: { answer, seq: 1 },
      });
    }
    const submit = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submit.statusCode).toBe(200);
  }

  it('ranks 6 of 11 points above 5 of 11 although fewer items were right, equal scores sharing a rank by name', async () => {
    const exam = app.exams.put(buildInternalExam({ questions: QUESTIONS }));
    // Ada gets the five 1-point questions (5 / 11 pts, 5 of 6 items); Bob and Bea the 6-point one (6 / 11, 1 item).
    await sit(exam.id, 'Ada', { 1: 'one1', 2: 'one2', 3: 'one3', 4: 'one4', 5: 'one5' });
    await sit(exam.id, 'Bob', { 0: 'six' });
    await sit(exam.id, 'Bea', { 0: 'six' });

    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/insights`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(response.statusCode).toBe(200);
    const report = InsightsReportSchema.parse(response.json());
    expect(report.candidates.map((c) => [c.name, c.rank, c.result?.score, c.result?.maxScore, c.correct])).toEqual([
      ['Bea', 1, 6, 11, 1],
      ['Bob', 1, 6, 11, 1],
      ['Ada', 3, 5, 11, 5],
    ]);
    // The unweighted figure still says what it is, and would have put Ada first.
    expect(report.candidates.map((c) => Math.round(c.rawScore!))).toEqual([17, 17, 83]);
    expect(report.explanations['candidate.rank']).toMatch(/weighted/);
    expect(report.explanations['candidate.rawScore']).toMatch(/^Items correct, unweighted/);
  });
});
