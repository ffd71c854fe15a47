import { PublicExamSchema, type PublicExam } from '@exam/domain/public-exam';
import { QuestionSchema } from '@exam/domain/question';
import { InsightsReportSchema } from '@exam/domain/insights';
import type { InternalExam } from '@exam/domain/internal';
import type { RegradeReport, ResultDetail } from '@exam/domain/result';
import { buildInternalExam } from '@exam/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';

/** Six questions: three single-answer MCQs of four options and three short answers, 1 point each. */
const sixQuestions = [
  {
    id: 'm1',
    type: 'mcq',
    title: 'Powerhouse',
    options: ['Nucleus', 'Mitochondrion', 'Ribosome', 'Golgi'],
    correctAnswer: 'Mitochondrion',
  },
  { id: 's1', type: 'short-answer', title: 'Largest organ', acceptedAnswers: ['skin'] },
  { id: 'm2', type: 'mcq', title: 'Gas we breathe out', options: ['O2', 'CO2', 'N2', 'He'], correctAnswer: 'CO2' },
  { id: 's2', type: 'short-answer', title: 'Blood pump', acceptedAnswers: ['heart'] },
  {
    id: 'm3',
    type: 'mcq',
    title: 'Red planet',
    options: ['Venus', 'Mars', 'Jupiter', 'Saturn'],
    correctAnswer: 'Mars',
  },
  { id: 's3', type: 'short-answer', title: 'H2O', acceptedAnswers: ['water'] },
];
const keyOf = (id: string) =>
  ({ m1: 'Mitochondrion', s1: 'skin', m2: 'CO2', s2: 'heart', m3: 'Mars', s3: 'water' })[id] ?? 'no idea';

/** One fixed short answer, then a pool of four MCQs of which each candidate draws two, worth 3 points each. */
const pooledQuestions = [
  { id: 'fixed', type: 'short-answer', title: 'Largest organ', acceptedAnswers: ['skin'], points: 2 },
  ...['p1', 'p2', 'p3', 'p4'].map((id) => ({
    id,
    type: 'mcq',
    title: `Pool question ${id}`,
    options: ['right', 'wrong'],
    correctAnswer: 'right',
    poolId: 'pool',
  })),
];
const pool = { id: 'pool', title: 'Cells', draw: 2, points: 3 };

describe('shuffled and pooled exams', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const examView = async (attempt: { attemptId: string; headers: Record<string, string> }) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/exam`,
      headers: attempt.headers,
    });
    expect(response.statusCode).toBe(200);
    return PublicExamSchema.parse(response.json());
  };

  async function answerAndSubmit(
    attempt: { attemptId: string; headers: Record<string, string> },
    view: PublicExam,
    answer: (id: string) => string,
  ) {
    for (const [index, q] of view.questions.entries()) {
      const saved = await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
        headers: attempt.headers,
        payload: { answer: answer(q.id), seq: 1 },
      });
      expect(saved.statusCode).toBe(200);
    }
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submitted.statusCode).toBe(200);
    return submitted.json<{ resultId: string }>().resultId;
  }

  const detail = async (ownerId: string, resultId: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, ownerId),
    });
    expect(response.statusCode).toBe(200);
    return response.json<ResultDetail>();
  };

  it('gives two candidates their own order of questions and options, the same on every reload, and scores both right', async () => {
    const exam = app.exams.put(
      buildInternalExam({ questions: sixQuestions, shuffleQuestions: true, shuffleOptions: true }),
    );
    const ada = await startAttempt(app, exam.id, { name: 'Ada' });
    const bob = await startAttempt(app, exam.id, { name: 'Bob' });
    const adaView = await examView(ada);
    const bobView = await examView(bob);

    const layout = (view: PublicExam) => view.questions.map((q) => `${q.id}:${q.options.join('/')}`);
    // 720 question orders × 24³ option orders: two equal layouts would be a one-in-ten-million coincidence.
    expect(layout(adaView)).not.toEqual(layout(bobView));
    for (const view of [adaView, bobView]) {
      expect(view.questions.map((q) => q.id).sort()).toEqual(['m1', 'm2', 'm3', 's1', 's2', 's3']);
      for (const q of view.questions) {
        const original = sixQuestions.find((o) => o.id === q.id)!;
        expect([...q.options].sort()).toEqual([...(original.options ?? [])].sort());
      }
    }
    // A reload, and a resume on the same device, show the same order.
    expect(layout(await examView(ada))).toEqual(layout(adaView));
    const resumed = await startAttempt(app, exam.id, { studentId: ada.studentId, resumeSecret: ada.resumeSecret });
    expect(resumed.attemptId).toBe(ada.attemptId);
    expect(layout(await examView({ ...ada, headers: resumed.headers }))).toEqual(layout(adaView));

    // Ada answers everything right; Bob gets the short answers right and the MCQs wrong.
    const adaResult = await answerAndSubmit(ada, adaView, keyOf);
    const bobResult = await answerAndSubmit(bob, bobView, (id) => (id.startsWith('s') ? keyOf(id) : 'Nucleus'));
    const adaDetail = await detail(exam.ownerId, adaResult);
    const bobDetail = await detail(exam.ownerId, bobResult);
    expect(adaDetail).toMatchObject({ score: 6, maxScore: 6 });
    expect(bobDetail).toMatchObject({ score: 3, maxScore: 6 });
    // The creator's detail names each answer's question in the exam as written.
    const titles = adaDetail.questionAnswers.map((qa) => [qa.examQuestionIndex, qa.question]);
    for (const [examIndex, title] of titles) expect(sixQuestions[examIndex as number]!.title).toBe(title);

    // The CSV export lists the points per question of the exam as written, whatever order each candidate had.
    const csv = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results.csv`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    const lines = csv.body.trim().split('\r\n');
    const titled =
      'Q1 Powerhouse (1 pt),Q2 Largest organ (1 pt),Q3 Gas we breathe out (1 pt),Q4 Blood pump (1 pt),Q5 Red planet (1 pt),Q6 H2O (1 pt)';
    expect(lines[0]).toContain(`,${titled},score`);
    const bobLine = lines.find((l) => l.startsWith('Bob'))!;
    expect(bobLine).toContain(',0,1,0,1,0,1,3,6,');

    // The gradebook too: Bob's MCQs (wrong) and short answers (right) under the exam's titles, whatever his order.
    const gradebook = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results.csv?format=gradebook`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    const book = gradebook.body.trim().split('\r\n');
    expect(book[0]).toBe(`Name,Candidate ID,${titled},Total,Max,Percentage,Status,Submitted at`);
    expect(book.find((l) => l.startsWith('Bob'))).toMatch(/^Bob,[^,]+,0,1,0,1,0,1,3,6,50,graded,/);
    expect(book.find((l) => l.startsWith('Ada'))).toMatch(/^Ada,[^,]+,1,1,1,1,1,1,6,6,100,graded,/);

    // Insights report each question of the exam as written: both got the short answers, only Ada the MCQs.
    const insights = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/insights`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    const report = InsightsReportSchema.parse(insights.json());
    expect(report.items.map((i) => [i.type, i.facility, i.drawn])).toEqual(
      sixQuestions.map((q) => [q.type, q.type === 'mcq' ? 0.5 : 1, 2]),
    );
  });

  it('draws each pool for each candidate at the pool’s points, regrades with the pool’s new points and reports N per item', async () => {
    const exam = app.exams.put(
      buildInternalExam({ questions: pooledQuestions, pools: [pool], shuffleQuestions: false }),
    );
    const owner = creatorHeaders(app, exam.ownerId);
    const drawnIds: string[][] = [];
    const resultIds: string[] = [];
    for (const name of ['Ada', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay']) {
      const attempt = await startAttempt(app, exam.id, { name });
      const view = await examView(attempt);
      expect(view.questions).toHaveLength(3);
      // The pool's draw sits where the pool's first question sits: after the fixed question.
      expect(view.questions[0]!.id).toBe('fixed');
      expect(view.questions.slice(1).map((q) => q.points)).toEqual([3, 3]);
      drawnIds.push(view.questions.slice(1).map((q) => q.id));
      resultIds.push(await answerAndSubmit(attempt, view, (id) => (id === 'fixed' ? 'skin' : 'right')));
    }
    for (const id of resultIds) expect(await detail(exam.ownerId, id)).toMatchObject({ score: 8, maxScore: 8 });

    // The creator makes each draw worth 5 and changes p1's key: a regrade follows both.
    const changed: InternalExam = {
      ...exam,
      pools: [{ ...pool, points: 5 }],
      questions: exam.questions.map((q) =>
        q.id === 'p1' ? QuestionSchema.parse({ ...q, correctAnswer: 'wrong' }) : q,
      ),
    };
    app.exams.put(changed);
    const regrade = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/regrade?dryRun=false`,
      headers: owner,
    });
    expect(regrade.statusCode).toBe(200);
    expect(regrade.json<RegradeReport>().results).toBe(6);
    for (const [k, id] of resultIds.entries()) {
      const drewP1 = drawnIds[k]!.includes('p1');
      expect(await detail(exam.ownerId, id)).toMatchObject({ score: drewP1 ? 7 : 12, maxScore: 12 });
    }

    const insights = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/insights`, headers: owner });
    expect(insights.statusCode).toBe(200);
    const report = InsightsReportSchema.parse(insights.json());
    expect(report.items.map((i) => i.questionIndex)).toEqual([0, 1, 2, 3, 4]);
    const drawnCount = (id: string) => drawnIds.filter((ids) => ids.includes(id)).length;
    expect(report.items.map((i) => i.drawn)).toEqual([6, ...['p1', 'p2', 'p3', 'p4'].map(drawnCount)]);
    // Each item is marked over those who drew it only.
    expect(report.items.map((i) => i.graded)).toEqual([6, ...['p1', 'p2', 'p3', 'p4'].map(drawnCount)]);
    // p1's key changed, so those who drew it got it wrong; everyone got the other drawn questions right.
    report.items.slice(1).forEach((item, k) => {
      if (item.drawn === 0) expect(item.facility).toBeNull();
      else expect(item.facility).toBe(k === 0 ? 0 : 1);
    });
  });

  it('keeps an exam without shuffling or pools in the creator’s order', async () => {
    const exam = app.exams.put(buildInternalExam({ questions: sixQuestions }));
    const attempt = await startAttempt(app, exam.id);
    const view = await examView(attempt);
    expect(view.questions.map((q) => q.id)).toEqual(sixQuestions.map((q) => q.id));
    expect(view.questions[0]!.options).toEqual(sixQuestions[0]!.options);
  });
});
