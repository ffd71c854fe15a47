import { encodeChoices } from '@exam/domain/grading';
import type { ResultDetail } from '@exam/domain/result';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { makePointsExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { sitExam } from '../../testing/sitting.ts';

describe('grading a result in points', () => {
  const clock = fakeClock(new Date('2033-02-01T10:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  async function submitted() {
    const exam = app.exams.put(makePointsExam());
    const { resultId } = await sitExam(app, exam.id, { 0: 'a', 1: encodeChoices(['a', 'c']), 2: 'x' });
    const owner = creatorHeaders(app, exam.ownerId);
    const patch = (grading: unknown[], headers = owner) =>
      app.inject({ method: 'PATCH', url: `/api/results/${resultId}`, headers, payload: { grading } });
    const detail = async () =>
      (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner })).json<ResultDetail>();
    return { exam, resultId, owner, patch, detail };
  }

  it('scores keys in points at submission, with partial credit, and leaves keyless questions pending, not wrong', async () => {
    const { detail } = await submitted();
    const result = await detail();
    expect(result.questionAnswers.map((q) => [q.points, q.maxPoints, q.autoScored])).toEqual([
      [2, 2, true],
      [0, 3, true],
      [null, 1, false],
      [null, 4, false],
    ]);
    expect(result.questionAnswers[1]).toMatchObject({ multipleAnswers: true, choices: ['a', 'c'], answer: 'a | c' });
    expect(result.questionAnswers[3]?.rubric?.id).toBe('essay-rubric');
    expect(result).toMatchObject({ score: 2, maxScore: 10, percentage: 20, status: 'pending', pendingCount: 2 });
  });

  it("saves points, feedback and rubric criteria, recomputes the score and writes one history row per question by the grader's e-mail", async () => {
    const { exam, patch } = await submitted();
    const response = await patch([
      { questionIndex: 2, points: 1, feedback: 'Well argued' },
      { questionIndex: 3, points: 4, feedback: 'Complete', criteria: ['thesis', 'sources'] },
    ]);
    expect(response.statusCode).toBe(200);
    const result = response.json<ResultDetail>();
    expect(result).toMatchObject({ score: 7, maxScore: 10, percentage: 70, status: 'graded', isGraded: true });
    expect(result.gradedAt).toBe(clock.now().toISOString());
    expect(result.questionAnswers[3]).toMatchObject({ points: 4, criteria: ['thesis', 'sources'], autoScored: false });
    expect(result.history).toEqual([
      {
        at: clock.now().toISOString(),
        by: `${exam.ownerId}@example.test`,
        kind: 'grade',
        questionIndex: 2,
        before: { points: null, feedback: '' },
        after: { points: 1, feedback: 'Well argued' },
      },
      {
        at: clock.now().toISOString(),
        by: `${exam.ownerId}@example.test`,
        kind: 'grade',
        questionIndex: 3,
        before: { points: null, feedback: '' },
        after: { points: 4, feedback: 'Complete' },
      },
    ]);
  });

  it('changes nothing when the same request comes twice: no toggle, no second history row', async () => {
    const { patch } = await submitted();
    const grading = [{ questionIndex: 2, points: 0.5, feedback: 'Partly' }];
    const first = (await patch(grading)).json<ResultDetail>();
    clock.advance(5_000);
    const second = (await patch(grading)).json<ResultDetail>();
    expect(second.questionAnswers[2]).toMatchObject({ points: 0.5, feedback: 'Partly' });
    expect(second.score).toBe(first.score);
    expect(second.history).toHaveLength(1);
  });

  it("overrides the key with the grader's points and gives the question back to the key with points: null", async () => {
    const { patch } = await submitted();
    const overridden = (await patch([{ questionIndex: 1, points: 1.5, feedback: 'Generous' }])).json<ResultDetail>();
    expect(overridden.questionAnswers[1]).toMatchObject({ points: 1.5, autoScored: false });
    expect(overridden.score).toBe(3.5);
    const restored = (await patch([{ questionIndex: 1, points: null }])).json<ResultDetail>();
    expect(restored.questionAnswers[1]).toMatchObject({ points: 0, autoScored: true, feedback: '' });
    expect(restored.score).toBe(2);
    expect(restored.history.map((h) => [h.questionIndex, h.before?.points, h.after?.points])).toEqual([
      [1, 0, 1.5],
      [1, 1.5, 0],
    ]);
  });

  it('answers 400 naming the field for points above the question, more than two decimals, an unknown criterion, a sum that is not the rubric’s and a question out of range, and saves none of it', async () => {
    const { patch, detail } = await submitted();
    const issuesOf = async (grading: unknown[]) => {
      const response = await patch(grading);
      expect(response.statusCode).toBe(400);
      return response.json<{ error: { issues: { path: string }[] } }>().error.issues.map((i) => i.path);
    };
    expect(await issuesOf([{ questionIndex: 0, points: 3 }])).toEqual(['grading.0.points']);
    expect(await issuesOf([{ questionIndex: 2, points: 0.125 }])).toEqual(['grading.0.points']);
    expect(
      await issuesOf([
        { questionIndex: 2, points: 1 },
        { questionIndex: 3, points: 1.5, criteria: ['style'] },
      ]),
    ).toEqual(['grading.1.criteria']);
    expect(await issuesOf([{ questionIndex: 3, points: 2, criteria: ['thesis'] }])).toEqual(['grading.0.points']);
    expect(await issuesOf([{ questionIndex: 4, points: 1 }])).toEqual(['grading.0.questionIndex']);
    expect(await issuesOf([{ questionIndex: 2, points: -1 }])).toEqual(['grading.0.points']);
    const unchanged = await detail();
    expect(unchanged).toMatchObject({ score: 2, status: 'pending' });
    expect(unchanged.history).toEqual([]);
  });

  it('answers 404 when another creator grades the result or reads it with its history, and changes nothing', async () => {
    const { resultId, patch, detail } = await submitted();
    const stranger = creatorHeaders(app, 'someone-else');
    expect((await patch([{ questionIndex: 2, points: 1 }], stranger)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: stranger })).statusCode).toBe(
      404,
    );
    expect((await detail()).history).toEqual([]);
  });
});
