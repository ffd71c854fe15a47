import type { ResultDetail } from '@exam/domain/result';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { makePointsExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { sitExam } from '../../testing/sitting.ts';

describe('releasing results', () => {
  const clock = fakeClock(new Date('2033-03-01T10:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  /** An exam with one fully graded result and one still pending (its keyless MCQ and essay unmarked). */
  async function setup() {
    const exam = app.exams.put(makePointsExam());
    const owner = creatorHeaders(app, exam.ownerId);
    const graded = await sitExam(app, exam.id, { 0: 'a' });
    const pending = await sitExam(app, exam.id, { 0: 'b' });
    const marked = await app.inject({
      method: 'PATCH',
      url: `/api/results/${graded.resultId}`,
      headers: owner,
      payload: { grading: [2, 3].map((questionIndex) => ({ questionIndex, points: 1 })) },
    });
    expect(marked.json()).toMatchObject({ status: 'graded' });
    const release = (resultId: string, released: boolean, headers = owner) =>
      app.inject({ method: 'POST', url: `/api/results/${resultId}/release`, headers, payload: { released } });
    const releaseAll = (released: boolean, headers = owner) =>
      app.inject({ method: 'POST', url: `/api/exams/${exam.id}/release`, headers, payload: { released } });
    return { exam, owner, graded, pending, release, releaseAll };
  }

  it('releases a graded result, records who did it, and withdraws it again', async () => {
    const { exam, graded, release } = await setup();
    const released = await release(graded.resultId, true);
    expect(released.statusCode).toBe(200);
    expect(released.json()).toMatchObject({
      status: 'released',
      releasedAt: clock.now().toISOString(),
      isGraded: true,
    });
    // Releasing again changes nothing.
    expect(
      (await release(graded.resultId, true)).json<ResultDetail>().history.filter((h) => h.kind === 'release'),
    ).toHaveLength(1);
    clock.advance(1000);
    const withdrawn = (await release(graded.resultId, false)).json<ResultDetail>();
    expect(withdrawn).toMatchObject({ status: 'graded', releasedAt: null });
    expect(withdrawn.history.slice(-2).map((h) => [h.kind, h.by, h.questionIndex])).toEqual([
      ['release', `${exam.ownerId}@example.test`, null],
      ['unrelease', `${exam.ownerId}@example.test`, null],
    ]);
  });

  it('answers 409 with the reason for a result still awaiting grading', async () => {
    const { pending, release } = await setup();
    const response = await release(pending.resultId, true);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/awaiting grading/);
  });

  it('releases every graded result of the exam and says how many, leaving the pending ones', async () => {
    const { graded, pending, releaseAll, owner } = await setup();
    const response = await releaseAll(true);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ released: true, changed: 1, pending: 1 });
    expect((await releaseAll(true)).json()).toEqual({ released: true, changed: 0, pending: 1 });
    const read = (id: string) => app.inject({ method: 'GET', url: `/api/results/${id}`, headers: owner });
    expect((await read(graded.resultId)).json()).toMatchObject({ status: 'released' });
    expect((await read(pending.resultId)).json()).toMatchObject({ status: 'pending', releasedAt: null });
    expect((await releaseAll(false)).json()).toEqual({ released: false, changed: 1, pending: 1 });
  });

  it('withdraws a released result that a grader makes pending again', async () => {
    const { graded, release, owner } = await setup();
    await release(graded.resultId, true);
    const regraded = await app.inject({
      method: 'PATCH',
      url: `/api/results/${graded.resultId}`,
      headers: owner,
      payload: { grading: [{ questionIndex: 3, points: null }] },
    });
    expect(regraded.json()).toMatchObject({ status: 'pending', releasedAt: null });
    expect(regraded.json<ResultDetail>().history.at(-1)).toMatchObject({ kind: 'unrelease' });
  });

  it('answers 404 to another creator for the result and the exam, and releases nothing', async () => {
    const { graded, release, releaseAll, owner } = await setup();
    const stranger = creatorHeaders(app, 'someone-else');
    expect((await release(graded.resultId, true, stranger)).statusCode).toBe(404);
    expect((await releaseAll(true, stranger)).statusCode).toBe(404);
    const unknownExam = await app.inject({
      method: 'POST',
      url: '/api/exams/exam-nobody-has/release',
      headers: owner,
      payload: { released: true },
    });
    expect(unknownExam.statusCode).toBe(404);
    const read = await app.inject({ method: 'GET', url: `/api/results/${graded.resultId}`, headers: owner });
    expect(read.json()).toMatchObject({ status: 'graded', releasedAt: null });
  });
});
