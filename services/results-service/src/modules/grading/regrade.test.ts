import { QuestionSchema } from '@exam/domain/question';
import type { InternalExam } from '@exam/domain/internal';
import type { RegradeReport, ResultDetail } from '@exam/domain/result';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { makePointsExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { sitExam } from '../../testing/sitting.ts';

describe('POST /api/exams/{examId}/regrade', () => {
  const clock = fakeClock(new Date('2033-04-01T10:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  /**
   * Three candidates sit the points exam; Ada's answer to "Pick one" is also hand-marked 1.5. Then the
   * creator fixes the key of "Pick one" from 'a' to 'b' and makes it worth 4 points.
   */
  async function setup() {
    const exam = app.exams.put(makePointsExam());
    const owner = creatorHeaders(app, exam.ownerId);
    const ada = await sitExam(app, exam.id, { 0: 'a' }, { name: 'Ada' });
    const bob = await sitExam(app, exam.id, { 0: 'b' }, { name: 'Bob' });
    const cy = await sitExam(app, exam.id, { 0: 'a' }, { name: 'Cy' });
    const marked = await app.inject({
      method: 'PATCH',
      url: `/api/results/${ada.resultId}`,
      headers: owner,
      payload: { grading: [{ questionIndex: 0, points: 1.5, feedback: 'Close' }] },
    });
    expect(marked.statusCode).toBe(200);
    const fixed: InternalExam = {
      ...exam,
      questions: exam.questions.map((q, i) =>
        i === 0 ? QuestionSchema.parse({ ...q, correctAnswer: 'b', points: 4, title: 'Pick one (fixed)' }) : q,
      ),
    };
    app.exams.put(fixed);
    const regrade = (dryRun: string | undefined, headers = owner) =>
      app.inject({
        method: 'POST',
        url: `/api/exams/${exam.id}/regrade${dryRun === undefined ? '' : `?dryRun=${dryRun}`}`,
        headers,
      });
    const read = async (resultId: string) =>
      (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner })).json<ResultDetail>();
    return { exam, owner, ada, bob, cy, regrade, read };
  }

  it('reports what re-scoring with the current keys would change and changes nothing on a dry run (the default)', async () => {
    const { bob, cy, regrade, read } = await setup();
    const response = await regrade(undefined);
    expect(response.statusCode).toBe(200);
    const report = response.json<RegradeReport>();
    expect(report).toMatchObject({ dryRun: true, results: 3, changed: 3, up: 1, down: 1 });
    expect(report.questions[0]).toEqual({ questionIndex: 0, title: 'Pick one (fixed)', changed: 2, up: 1, down: 1 });
    expect(report.questions.slice(1).every((q) => q.changed === 0)).toBe(true);
    const byName = [...report.changes].sort((a, b) => a.userName.localeCompare(b.userName));
    expect(byName.map((c) => [c.userName, c.before, c.after])).toEqual([
      // Ada keeps the grader's 1.5; her maximum grows from 10 to 12.
      ['Ada', 1.5, 1.5],
      ['Bob', 0, 4],
      ['Cy', 2, 0],
    ]);
    expect(await read(bob.resultId)).toMatchObject({ score: 0, maxScore: 10, history: [] });
    expect((await read(cy.resultId)).questionAnswers[0]).toMatchObject({ points: 2, maxPoints: 2 });
    expect((await regrade('true')).json()).toEqual(report);
  });

  it("applies the new keys and points, keeps a grader's mark, and records each moved question", async () => {
    const { exam, ada, bob, cy, regrade, read } = await setup();
    clock.advance(60_000);
    const response = await regrade('false');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ dryRun: false, results: 3, changed: 3, up: 1, down: 1 });

    const adaNow = await read(ada.resultId);
    expect(adaNow.questionAnswers[0]).toMatchObject({
      points: 1.5,
      maxPoints: 4,
      autoScored: false,
      feedback: 'Close',
    });
    expect(adaNow).toMatchObject({ score: 1.5, maxScore: 12 });
    expect(adaNow.history.filter((h) => h.kind === 'regrade')).toEqual([]);

    const bobNow = await read(bob.resultId);
    expect(bobNow.questionAnswers[0]).toMatchObject({
      question: 'Pick one',
      points: 4,
      maxPoints: 4,
      correctAnswer: 'b',
      autoScored: true,
    });
    expect(bobNow).toMatchObject({ score: 4, maxScore: 12 });
    expect(bobNow.history).toEqual([
      {
        at: clock.now().toISOString(),
        by: `${exam.ownerId}@example.test`,
        kind: 'regrade',
        questionIndex: 0,
        before: { points: 0, feedback: '' },
        after: { points: 4, feedback: '' },
      },
    ]);
    expect((await read(cy.resultId)).score).toBe(0);

    // A second regrade finds nothing left to change.
    expect((await regrade('false')).json()).toMatchObject({ changed: 0, up: 0, down: 0, changes: [] });
  });

  it('answers 404 to another creator and for an exam exam-service does not know, and changes nothing', async () => {
    const { exam, bob, regrade, read, owner } = await setup();
    expect((await regrade('false', creatorHeaders(app, 'someone-else'))).statusCode).toBe(404);
    app.exams.remove(exam.id);
    expect((await regrade('false', owner)).statusCode).toBe(404);
    expect(await read(bob.resultId)).toMatchObject({ score: 0, maxScore: 10, history: [] });
  });

  it('answers 400 for a dryRun that is neither true nor false', async () => {
    const { regrade } = await setup();
    expect((await regrade('maybe')).statusCode).toBe(400);
  });
});
