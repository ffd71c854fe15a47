import { PublicExamSchema } from '@exam/domain/public-exam';
import type { ResultDetail } from '@exam/domain/result';
import { buildInternalExam } from '@exam/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';

/** Six short answers, 1 point each, written in this order by the creator. */
const QUESTIONS = ['Largest organ', 'Blood pump', 'H2O', 'Red planet', 'Gas breathed out', 'Powerhouse'].map(
  (title, i) => ({ id: `q${i}`, type: 'short-answer', title, acceptedAnswers: [`key${i}`] }),
);

describe("a result's questions in the exam's own order", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  /** Starts an attempt, answers each question right, submits; returns the candidate's order and the result id. */
  async function sit(examId: string, name: string) {
    const attempt = await startAttempt(app, examId, { name });
    const view = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/exam`,
      headers: attempt.headers,
    });
    const order = PublicExamSchema.parse(view.json()).questions.map((q) => q.id);
    for (const [index, id] of order.entries()) {
      await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
        headers: attempt.headers,
        payload: { answer: `key${id.slice(1)}`, seq: 1 },
      });
    }
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submitted.statusCode).toBe(200);
    return { order, resultId: submitted.json<{ resultId: string }>().resultId };
  }

  const detailOf = async (ownerId: string, resultId: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, ownerId),
    });
    expect(response.statusCode).toBe(200);
    return response.json<ResultDetail>();
  };

  it('numbers both candidates of a shuffled exam by the exam, each answer still saying where its candidate saw it', async () => {
    const exam = app.exams.put(buildInternalExam({ questions: QUESTIONS, shuffleQuestions: true }));
    const ada = await sit(exam.id, 'Ada');
    // A second candidate whose order differs from Ada's (720 orders: the first one almost always does).
    let bob = await sit(exam.id, 'Bob');
    for (let tries = 0; tries < 5 && bob.order.join() === ada.order.join(); tries++) bob = await sit(exam.id, 'Bob');
    expect(bob.order).not.toEqual(ada.order);
    expect(ada.order).not.toEqual(QUESTIONS.map((q) => q.id));

    for (const candidate of [ada, bob]) {
      const detail = await detailOf(exam.ownerId, candidate.resultId);
      // Question n of the grader's view is the exam's question n, for every candidate.
      expect(detail.questionAnswers.map((qa) => [qa.examQuestionIndex, qa.question])).toEqual(
        QUESTIONS.map((q, i) => [i, q.title]),
      );
      // The candidate's own place of each question is kept as information (and to address their answer).
      expect(detail.questionAnswers.map((qa) => qa.questionIndex)).toEqual(
        QUESTIONS.map((q) => candidate.order.indexOf(q.id)),
      );
      expect(detail.questionAnswers.map((qa) => qa.answer)).toEqual(QUESTIONS.map((_q, i) => `key${i}`));
    }
  });

  it("lands a grader's mark on the question it names by the candidate's index, and answers in the exam's order", async () => {
    const exam = app.exams.put(buildInternalExam({ questions: QUESTIONS, shuffleQuestions: true }));
    const { order, resultId } = await sit(exam.id, 'Cy');
    const seenAt = order.indexOf('q3');
    const marked = await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: { grading: [{ questionIndex: seenAt, points: 0, feedback: 'Not Mars', criteria: [] }] },
    });
    expect(marked.statusCode).toBe(200);
    const detail = marked.json<ResultDetail>();
    expect(detail.questionAnswers.map((qa) => qa.examQuestionIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(detail.questionAnswers[3]).toMatchObject({ question: 'Red planet', questionIndex: seenAt, points: 0 });
    expect(detail.questionAnswers[3]!.feedback).toBe('Not Mars');
    expect(detail.score).toBe(5);
  });

  it("places a pool's drawn questions where the pool sits in the exam, whatever order the candidate had", async () => {
    // A fixed question, a pool of four drawing two, a fixed question: shuffled, so the pool's draw moves around.
    const questions = [QUESTIONS[0]!, ...QUESTIONS.slice(1, 5).map((q) => ({ ...q, poolId: 'pool' })), QUESTIONS[5]!];
    const exam = app.exams.put(
      buildInternalExam({
        questions,
        pools: [{ id: 'pool', title: 'Body', draw: 2, points: 1 }],
        shuffleQuestions: true,
      }),
    );
    for (const name of ['Dee', 'Eve', 'Fay']) {
      const { order, resultId } = await sit(exam.id, name);
      const detail = await detailOf(exam.ownerId, resultId);
      const drawnIndices = order.map((id) => Number(id.slice(1))).sort((a, b) => a - b);
      expect(detail.questionAnswers.map((qa) => qa.examQuestionIndex)).toEqual(drawnIndices);
      expect(detail.questionAnswers[0]!.question).toBe('Largest organ');
      expect(detail.questionAnswers.at(-1)!.question).toBe('Powerhouse');
    }
  });

  it("keeps an unarranged exam's order, numbering each question by its place", async () => {
    const exam = app.exams.put(buildInternalExam({ questions: QUESTIONS }));
    const { resultId } = await sit(exam.id, 'Gil');
    const detail = await detailOf(exam.ownerId, resultId);
    expect(detail.questionAnswers.map((qa) => [qa.questionIndex, qa.examQuestionIndex])).toEqual(
      QUESTIONS.map((_q, i) => [i, i]),
    );
  });
});
