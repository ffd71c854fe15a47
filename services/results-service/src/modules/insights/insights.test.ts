import type { TranscriptMessage } from '@exam/domain/internal';
import { PublicExamSchema } from '@exam/domain/public-exam';
import { InsightsReportSchema } from '@exam/domain/insights';
import { buildInternalExam } from '@exam/domain/testing';
import { CHART_REASONS } from '@exam/psychometrics/report';
import { simulateTwoPl } from '@exam/psychometrics/simulate';
import { newcombeDifference, UPLIFT_CAUTIONS } from '@exam/psychometrics/uplift';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock, fakeTranscripts } from '../../testing/fakes.ts';

let messageCounter = 0;
const message = (role: 'user' | 'assistant', content: string, questionIndex: number | null): TranscriptMessage => ({
  id: `m${++messageCounter}`,
  role,
  content,
  questionIndex,
  isError: false,
  files: [],
  createdAt: new Date().toISOString(),
});

const questions = [
  { id: 'q1', type: 'mcq', title: 'Powerhouse', topic: 'Cells', options: ['a', 'b', 'c', 'd'], correctAnswer: 'a' },
  { id: 'q2', type: 'mcq', title: 'Membrane', topic: 'Cells', options: ['a', 'b'], correctAnswer: 'a' },
  { id: 'q3', type: 'short-answer', title: 'Largest organ', topic: 'Organs', acceptedAnswers: ['skin'] },
  { id: 'q4', type: 'file-upload', title: 'Lab report', topic: '' },
];

describe('GET /api/exams/{examId}/insights', () => {
  const clock = fakeClock(new Date('2032-05-01T09:00:00Z'));
  const transcripts = fakeTranscripts();
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock, transcripts } });
  });
  afterAll(() => app.close());

  type Step = { after: number; events?: (string | { type: string; questionIndex: number })[] };
  /** Starts, answers, records events at the given offsets (seconds) and submits 90 s after starting. */
  async function sit(examId: string, name: string, answers: Record<number, string>, steps: Step[] = []) {
    const attempt = await startAttempt(app, examId, { name, studentId: `ID-${name}-${examId}` });
    for (const [index, answer] of Object.entries(answers)) {
      await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
        headers: attempt.headers,
        payload: { answer, seq: 1 },
      });
    }
    let elapsed = 0;
    for (const step of steps) {
      clock.advance((step.after - elapsed) * 1000);
      elapsed = step.after;
      const events = (step.events ?? []).map((e) => (typeof e === 'string' ? { type: e } : e));
      await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/events`,
        headers: attempt.headers,
        payload: { events },
      });
    }
    clock.advance((90 - elapsed) * 1000);
    const submit = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    return { attemptId: attempt.attemptId, resultId: submit.json().resultId as string };
  }

  /**
   * The hand-checked cohort. Marks (q1..q4; q4 is a file upload graded by hand, C's still pending):
   *   A 1 1 1 1 = 4   focus lost 30 s → 48 s of 90 s (80 %)
   *   B 1 0 1 0 = 2   asked the assistant on q1
   *   C 0 0 0 – = 0   asked on q3 and copied its reply as the answer; two blocked pastes
   * D started and never submitted.
   */
  async function cohort() {
    const exam = app.exams.put(makeExam({ questions }));
    const owner = creatorHeaders(app, exam.ownerId);
    const a = await sit(exam.id, 'Ada', { 0: 'a', 1: 'a', 2: 'skin' }, [
      { after: 30, events: ['focus-lost'] },
      { after: 48, events: ['focus-gained'] },
    ]);
    const b = await sit(exam.id, 'Bob', { 0: 'a', 1: 'b', 2: 'Skin' });
    const c = await sit(exam.id, 'Cy', { 0: 'b', 1: 'b', 2: 'the liver is an organ here' }, [
      { after: 10, events: ['paste-blocked', 'paste-blocked'] },
    ]);
    await startAttempt(app, exam.id, { name: 'Dee' });
    const grade = (resultId: string, isCorrect: boolean) =>
      app.inject({
        method: 'PATCH',
        url: `/api/results/${resultId}`,
        headers: owner,
        payload: { grading: [{ questionIndex: 3, points: isCorrect ? 1 : 0 }] },
      });
    expect((await grade(a.resultId, true)).statusCode).toBe(200);
    expect((await grade(b.resultId, false)).statusCode).toBe(200);
    transcripts.put(exam.id, {
      attemptId: b.attemptId,
      messages: [
        message('user', 'Which organelle makes energy?', 0),
        message('assistant', 'Think about respiration.', 0),
      ],
    });
    transcripts.put(exam.id, {
      attemptId: c.attemptId,
      messages: [
        message('user', 'What is the largest organ?', 2),
        message('assistant', 'I think the liver is an organ here indeed.', 2),
      ],
    });
    return { exam, owner, a, b, c };
  }

  const insights = (examId: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/exams/${examId}/insights`, headers });

  it('ranks each candidate with the same score, max score, percentage and status as the result itself', async () => {
    const { exam, owner, a, c } = await cohort();
    const report = InsightsReportSchema.parse((await insights(exam.id, owner)).json());
    for (const resultId of [a.resultId, c.resultId]) {
      const result = (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner })).json();
      const candidate = report.candidates.find((x) => x.resultId === resultId);
      expect(candidate?.result).toEqual({
        score: result.score,
        maxScore: result.maxScore,
        percentage: result.percentage,
        status: result.status,
      });
    }
    expect(report.candidates.find((x) => x.resultId === a.resultId)?.result).toMatchObject({
      score: 4,
      status: 'graded',
    });
    expect(report.candidates.find((x) => x.resultId === c.resultId)?.result?.status).toBe('pending');
  });

  it('computes the cohort, test, item, candidate, topic and integrity figures of a hand-checked cohort', async () => {
    const { exam, owner, a, b, c } = await cohort();
    const response = await insights(exam.id, owner);
    expect(response.statusCode).toBe(200);
    const report = InsightsReportSchema.parse(response.json());

    expect(report.cohort).toEqual({ invited: 4, started: 4, submitted: 3, graded: 2, pending: 1 });
    // Totals 4, 2, 0 of 4 (pending counts 0): mean 2, sample SD 2; item variances 1/3 each → alpha = 4/3 · (1 − (4/3)/4) = 8/9.
    expect(report.test).toMatchObject({ candidates: 3, maxScore: 4, mean: 50, median: 50, sd: 50 });
    expect(report.test.cronbachAlpha).toBeCloseTo(8 / 9, 10);
    expect(report.test.errorRatio).toBeCloseTo(100 / 3, 10);
    expect(report.test.standardError).toBeCloseTo((100 * (2 / 3)) / 4, 10);

    const item = (i: number) => report.items[i]!;
    expect(report.items.map((x) => [x.questionIndex, x.topic, x.type, x.graded])).toEqual([
      [0, 'Cells', 'mcq', 3],
      [1, 'Cells', 'mcq', 3],
      [2, 'Organs', 'short-answer', 3],
      [3, 'General', 'file-upload', 2],
    ]);
    expect(item(0).facility).toBeCloseTo(2 / 3, 10);
    expect(item(1).facility).toBeCloseTo(1 / 3, 10);
    expect(item(3).facility).toBe(0.5);
    expect(report.items.map((x) => x.randomGuessScore)).toEqual([0.25, 0.5, 0, 0]);
    expect(item(0).aiReference).toBeCloseTo(100 / 3, 10);
    expect(item(1).aiReference).toBe(0);
    expect(item(2).aiReference).toBeCloseTo(100 / 3, 10);
    expect(item(0).raschDifficulty).not.toBeNull();

    expect(
      report.candidates.map((x) => [
        x.resultId,
        x.name,
        x.rank,
        x.correct,
        x.rawScore,
        x.timeSpent,
        x.focusPercent,
        x.blockedPastes,
      ]),
    ).toEqual([
      [a.resultId, 'Ada', 1, 4, 100, 90, 80, 0],
      [b.resultId, 'Bob', 2, 2, 50, 90, 100, 0],
      [c.resultId, 'Cy', 3, 0, 0, 90, 100, 2],
    ]);
    // Bob's correct q1 was asked about: half credit → (0.5 + 1) / 4.
    expect(report.candidates.map((x) => x.reasoning)).toEqual([100, 37.5, 0]);
    expect(report.candidates.map((x) => x.copyWriting)).toEqual([null, null, 100]);
    expect(report.candidates.map((x) => x.badges.rawScore)).toEqual(['above', 'in', 'below']);
    const abilities = report.candidates.map((x) => x.abilityTheta!);
    expect(abilities[0]).toBeGreaterThan(abilities[1]!);
    expect(abilities[1]).toBeGreaterThan(abilities[2]!);

    expect(report.topics.map((t) => [t.topic, t.questions])).toEqual([
      ['Cells', 2],
      ['Organs', 1],
      ['General', 1],
    ]);
    expect(report.topics[0]!.rawScorePercent).toBe(50);
    expect(report.topics[1]!.rawScorePercent).toBeCloseTo(200 / 3, 10);
    expect(report.overall).toMatchObject({ questions: 4, rawScorePercent: 50 });
    expect(report.overall.reasoningPercent).toBeCloseTo(137.5 / 3, 10);
    expect(report.integrity.avgTimeToCompleteSeconds).toBe(90);
    expect(report.integrity.focusPercent).toBeCloseTo(280 / 3, 10);
    expect(report.integrity).toMatchObject({ externalPasteBlocked: 2, copyWritingPercent: 100 });
    expect(report.explanations['item.facility']).toMatch(/Facility/);
    expect(report.reasoningFormula).toMatch(/^Reasoning = /);
  });

  it('compares those who asked the assistant with those who did not, per question, topic and exam, and groups abilities', async () => {
    const { exam, owner } = await cohort();
    const report = InsightsReportSchema.parse((await insights(exam.id, owner)).json());
    // q1: Bob asked (1) against Ada (1) and Cy (0).
    const ci = newcombeDifference(1, 1, 0.5, 2);
    expect(report.items[0]!.aiUplift).toEqual({
      asked: 1,
      notAsked: 2,
      askedFacility: 1,
      notAskedFacility: 0.5,
      difference: 0.5,
      ciLow: ci.low,
      ciHigh: ci.high,
      caution: UPLIFT_CAUTIONS.small(1, 2),
    });
    // q4: Cy's upload is pending, so only Ada (1) and Bob (0) count; nobody asked about it.
    expect(report.items[3]!.aiUplift).toMatchObject({ asked: 0, notAsked: 2, notAskedFacility: 0.5, difference: null });
    expect(report.reasons['items.3.aiUplift']).toBe(UPLIFT_CAUTIONS.nobodyAsked);
    // Whole exam: Bob (2 of 4) and Cy (0 of 3 marked) asked something; Ada (4 of 4) did not.
    expect(report.aiUplift!.overall).toMatchObject({ asked: 2, notAsked: 1, askedFacility: 0.25, notAskedFacility: 1 });
    expect(report.aiUplift!.overall.difference).toBe(-0.75);
    expect(report.aiUplift!.topics.map((t) => [t.topic, t.asked, t.notAsked, t.askedFacility])).toEqual([
      ['Cells', 1, 2, 0.5],
      ['Organs', 1, 2, 0],
      ['General', 0, 2, null],
    ]);
    // Three candidates with abilities: one group per item, over those with a mark.
    const meanTheta = report.candidates.reduce((sum, c) => sum + c.abilityTheta!, 0) / 3;
    expect(report.items[0]!.scoreGroups).toEqual([{ theta: expect.closeTo(meanTheta, 10), n: 3, observed: 2 / 3 }]);
    expect(report.items[3]!.scoreGroups).toMatchObject([{ n: 2, observed: 0.5 }]);
    // No page reported a question view here.
    expect(report.items[0]!.time).toEqual({ medianSeconds: null, meanSeconds: null, candidates: 0 });
    expect(report.reasons['items.0.time']).toBe(CHART_REASONS.noViews);
    for (const key of ['item.aiUplift', 'item.scoreGroups', 'item.time', 'overall.aiUplift', 'aiUse'])
      expect(report.explanations[key]).toBeTruthy();
  });

  it('times each question of a pooled exam over those who drew it, from question-view events, and counts assistant use by minute', async () => {
    const pooled = buildInternalExam({
      questions: [
        { id: 'fixed', type: 'short-answer', title: 'Largest organ', acceptedAnswers: ['skin'] },
        ...['p1', 'p2', 'p3', 'p4'].map((id) => ({
          id,
          type: 'mcq',
          title: `Pool question ${id}`,
          options: ['right', 'wrong'],
          correctAnswer: 'right',
          poolId: 'pool',
        })),
      ],
      pools: [{ id: 'pool', title: 'Cells', draw: 2, points: 1 }],
    });
    const exam = app.exams.put(pooled);
    const owner = creatorHeaders(app, exam.ownerId);
    const firstDrawn: string[] = [];
    const drawn: string[][] = [];
    let resultId = '';
    for (const name of ['Ada', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay']) {
      const startedAt = clock.now().getTime();
      const attempt = await startAttempt(app, exam.id, { name });
      const view = PublicExamSchema.parse(
        (
          await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}/exam`, headers: attempt.headers })
        ).json(),
      );
      const ids = view.questions.map((q) => q.id);
      expect(ids[0]).toBe('fixed');
      drawn.push(ids);
      firstDrawn.push(ids[1]!);
      for (const [index, id] of ids.entries()) {
        await app.inject({
          method: 'PUT',
          url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
          headers: attempt.headers,
          // Everyone gets p3 wrong and the rest right.
          payload: { answer: id === 'fixed' ? 'skin' : id === 'p3' ? 'wrong' : 'right', seq: 1 },
        });
      }
      // The candidate's first pool question (their index 1) for 30 s, then the fixed one for 20 s before the page
      // loses focus; submitted at 90 s.
      const post = async (after: number, events: object[]) => {
        clock.advance(after * 1000);
        const response = await app.inject({
          method: 'POST',
          url: `/api/attempts/${attempt.attemptId}/events`,
          headers: attempt.headers,
          payload: { events },
        });
        expect(response.statusCode).toBe(202);
      };
      await post(10, [{ type: 'question-view', questionIndex: 1 }]);
      await post(30, [{ type: 'question-view', questionIndex: 0 }]);
      await post(20, [{ type: 'focus-lost' }]);
      clock.advance(30_000);
      const submitted = await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/submit`,
        headers: attempt.headers,
      });
      resultId = submitted.json().resultId;
      // Each asks the assistant about their first pool question 20 s in.
      transcripts.put(exam.id, {
        attemptId: attempt.attemptId,
        messages: [
          { ...message('user', 'Is it the right one?', 1), createdAt: new Date(startedAt + 20_000).toISOString() },
          { ...message('assistant', 'Think it through.', 1), createdAt: new Date(startedAt + 21_000).toISOString() },
        ],
      });
    }
    const report = InsightsReportSchema.parse((await insights(exam.id, owner)).json());
    expect(report.items[0]!.time).toEqual({ medianSeconds: 20, meanSeconds: 20, candidates: 6 });
    ['p1', 'p2', 'p3', 'p4'].forEach((id, k) => {
      const item = report.items[k + 1]!;
      const first = firstDrawn.filter((x) => x === id).length;
      const drew = drawn.filter((ids) => ids.includes(id)).length;
      expect(item.drawn).toBe(drew);
      expect(item.time).toEqual(
        first === 0
          ? { medianSeconds: null, meanSeconds: null, candidates: 0 }
          : { medianSeconds: 30, meanSeconds: 30, candidates: first },
      );
      // Over those who drew it: the ones who saw it first asked about it.
      expect(item.aiUplift).toMatchObject({ asked: first, notAsked: drew - first });
      if (first > 0) expect(item.aiUplift!.askedFacility).toBe(id === 'p3' ? 0 : 1);
    });
    expect(report.aiUplift!.overall).toMatchObject({ asked: 6, notAsked: 0, caution: UPLIFT_CAUTIONS.everybodyAsked });
    expect(report.aiUse).toEqual({
      bucketSeconds: 60,
      buckets: [
        { from: 0, messages: 6, candidates: 6 },
        { from: 60, messages: 0, candidates: 0 },
      ],
    });
    // Question views are no integrity incident: the result's events list and counts leave them out.
    const detail = (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner })).json();
    expect(detail.eventSummary).toEqual({ 'focus-lost': 1 });
    expect(detail.events.map((e: { type: string }) => e.type)).toEqual(['focus-lost']);
  });

  it('weighs a partly earned question by its share of the points and leaves a pending answer out, not wrong', async () => {
    const exam = app.exams.put(
      makeExam({
        questions: [
          { id: 'k', type: 'mcq', title: 'Pick', options: ['a', 'b'], correctAnswer: 'a' },
          { id: 'e', type: 'file-upload', title: 'Essay', points: 4 },
        ],
      }),
    );
    const owner = creatorHeaders(app, exam.ownerId);
    const a = await sit(exam.id, 'Ann', { 0: 'a' });
    const b = await sit(exam.id, 'Ben', { 0: 'b' });
    await sit(exam.id, 'Cat', { 0: 'a' });
    for (const [resultId, points] of [
      [a.resultId, 3],
      [b.resultId, 1],
    ] as const) {
      const marked = await app.inject({
        method: 'PATCH',
        url: `/api/results/${resultId}`,
        headers: owner,
        payload: { grading: [{ questionIndex: 1, points }] },
      });
      expect(marked.statusCode).toBe(200);
    }
    const report = InsightsReportSchema.parse((await insights(exam.id, owner)).json());
    expect(report.cohort).toMatchObject({ submitted: 3, graded: 2, pending: 1 });
    // The essay: 3/4 and 1/4 of its points; Cat's is still pending, so only two candidates have a mark.
    expect(report.items[1]).toMatchObject({ graded: 2, facility: 0.5 });
    expect(report.items[0]).toMatchObject({ graded: 3 });
    const correct = Object.fromEntries(report.candidates.map((x) => [x.name, x.correct]));
    expect(correct).toEqual({ Ann: 1.75, Ben: 0.25, Cat: 1 });
  });

  it('counts the assistant replies the guardrail stopped, per candidate and over the cohort', async () => {
    const exam = app.exams.put(makeExam({ questions }));
    const owner = creatorHeaders(app, exam.ownerId);
    const ann = await sit(exam.id, 'Ann', { 0: 'a' });
    const ben = await sit(exam.id, 'Ben', { 0: 'b' });
    const withheld = (content: string, questionIndex: number): TranscriptMessage => ({
      ...message('assistant', content, questionIndex),
      isWithheld: true,
      withheldQuestionIndex: questionIndex,
    });
    transcripts.put(exam.id, {
      attemptId: ann.attemptId,
      messages: [
        message('user', 'Tell me q1', 0),
        withheld('Think about', 0),
        message('user', 'And q3?', 2),
        withheld('It is the', 2),
        message('assistant', 'A hint: cover the body.', 2),
      ],
    });
    transcripts.put(exam.id, { attemptId: ben.attemptId, messages: [message('user', 'Hi', null)] });
    const report = InsightsReportSchema.parse((await insights(exam.id, owner)).json());
    expect(report.integrity.answersWithheld).toBe(2);
    expect(report.candidates.find((c) => c.resultId === ann.resultId)?.answersWithheld).toBe(2);
    expect(report.candidates.find((c) => c.resultId === ben.resultId)?.answersWithheld).toBe(0);
  });

  it('answers 404 to another creator, whether or not the exam has attempts', async () => {
    const { exam } = await cohort();
    expect((await insights(exam.id, creatorHeaders(app, 'someone-else'))).statusCode).toBe(404);
    const untouched = app.exams.put(makeExam({ questions }));
    expect((await insights(untouched.id, creatorHeaders(app, 'someone-else'))).statusCode).toBe(404);
    expect((await insights('exam-that-does-not-exist', creatorHeaders(app, 'someone-else'))).statusCode).toBe(404);
  });

  it('sends no Server-Timing header when INSIGHTS_SERVER_TIMING is off', async () => {
    const { exam, owner } = await cohort();
    const response = await insights(exam.id, owner);
    expect(response.statusCode).toBe(200);
    expect(response.headers['server-timing']).toBeUndefined();
  });

  it('reports the database, statistics, Rasch and serialization phases in Server-Timing when INSIGHTS_SERVER_TIMING is on', async () => {
    const { exam, owner } = await cohort();
    const timed = await buildTestApp({ env: { INSIGHTS_SERVER_TIMING: '1' }, deps: { clock, transcripts } });
    try {
      const response = await timed.inject({ method: 'GET', url: `/api/exams/${exam.id}/insights`, headers: owner });
      expect(response.statusCode).toBe(200);
      expect(InsightsReportSchema.parse(response.json())).toEqual(
        InsightsReportSchema.parse((await insights(exam.id, owner)).json()),
      );
      const phases = Object.fromEntries(
        String(response.headers['server-timing'])
          .split(', ')
          .map((entry) => /^([a-z-]+);dur=(\d+\.\d)(;desc="cpu=\d+\.\d")?$/.exec(entry)!.slice(1, 3)),
      );
      expect(Object.keys(phases).sort()).toEqual([
        'agreement',
        'aided',
        'cache',
        'candidates',
        'classical',
        'collaboration',
        'db',
        'exam',
        'gzip',
        'item-fit',
        'one-pl',
        'rasch',
        'rasch-topics',
        'reliance',
        'report',
        'serialize',
        'total',
        'transcripts',
        'two-pl',
      ]);
      expect(Number(phases.total)).toBeGreaterThanOrEqual(Number(phases.db) + Number(phases.report));
    } finally {
      await timed.close();
    }
  });

  describe('models on a simulated cohort', () => {
    // 150 candidates answer 6 multiple-choice questions by a 2PL model: discriminations from flat to sharp,
    // and question 6 keyed wrong, so stronger candidates miss it.
    const A = [0.5, 1.8, 1.0, 1.6, 0.6, -1.2];
    const B = [-1, -0.5, 0, 0.3, 0.8, 0];
    const mcq = A.map((_, j) => ({
      id: `m${j}`,
      type: 'mcq',
      title: `Question ${j + 1}`,
      topic: j < 3 ? 'Cells' : 'Organs',
      options: ['a', 'b', 'c'],
      correctAnswer: 'a',
    }));
    let examId = '';
    let owner: Record<string, string> = {};
    beforeAll(async () => {
      const exam = app.exams.put(makeExam({ questions: mcq }));
      examId = exam.id;
      owner = creatorHeaders(app, exam.ownerId);
      const { marks } = simulateTwoPl(150, A, B, 16);
      for (const [c, row] of marks.entries()) {
        // An unanswered multiple-choice question is graded wrong, so only the right answers are sent.
        const answers = Object.fromEntries(row.flatMap((x, j) => (x === 1 ? [[j, 'a']] : [])));
        await sit(examId, `Sim${c}`, answers);
      }
    }, 120_000);
    const report = async (query = '') => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/exams/${examId}/insights${query}`,
        headers: owner,
      });
      expect(response.statusCode).toBe(200);
      return InsightsReportSchema.parse(response.json());
    };

    it('reports each question’s 2PL parameters, Rasch fit and flags, and the model the abilities come from', async () => {
      const auto = await report();
      expect(auto.cohort.submitted).toBe(150);
      for (const item of auto.items) {
        expect(item.twoPl).toEqual({
          discrimination: expect.any(Number),
          difficulty: expect.any(Number),
          discriminationSe: expect.any(Number),
          difficultySe: expect.any(Number),
        });
        expect(item.fit).toEqual({ infit: expect.any(Number), outfit: expect.any(Number), flags: expect.any(Array) });
      }
      const reversed = auto.items[5]!;
      expect(reversed.twoPl!.discrimination!).toBeLessThan(0);
      expect(reversed.fit!.flags).toContain('negative-discrimination');
      expect(auto.explanations['flag.negative-discrimination']).toMatch(/key/);
      // Discriminations from 0.5 to 1.8 (and one negative) are far from equal: the test picks the 2PL.
      expect(auto.model).toMatchObject({ requested: 'auto', chosen: '2pl', alpha: 0.05 });
      expect(auto.model!.twoPl.converged).toBe(true);
      expect(auto.model!.lrt).toEqual({ statistic: expect.any(Number), df: 5, p: expect.any(Number) });
      expect(auto.model!.lrt!.p).toBeLessThan(0.05);
      expect(auto.model!.reason).toMatch(/likelihood-ratio test χ²\(5\)/);
    });

    it('takes the abilities from the model the creator asks for', async () => {
      const rasch = await report('?model=rasch');
      const twoPl = await report('?model=2pl');
      expect(rasch.model).toMatchObject({ requested: 'rasch', chosen: 'rasch' });
      expect(twoPl.model).toMatchObject({ requested: '2pl', chosen: '2pl' });
      expect(twoPl.model!.lrt).toEqual(rasch.model!.lrt);
      // Under Rasch the raw score decides the ability; under the 2PL the reversed question lowers it.
      const spread = (r: typeof rasch) => {
        const byScore = new Map<number, Set<number>>();
        for (const c of r.candidates)
          byScore.set(c.correct, (byScore.get(c.correct) ?? new Set()).add(c.abilityTheta!));
        return Math.max(...[...byScore.values()].map((thetas) => thetas.size));
      };
      expect(spread(rasch)).toBe(1);
      expect(spread(twoPl)).toBeGreaterThan(1);
      expect(twoPl.items.map((i) => i.twoPl)).toEqual(rasch.items.map((i) => i.twoPl));
    });

    it('refuses an unknown model with 400', async () => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/exams/${examId}/insights?model=3pl`,
        headers: owner,
      });
      expect(response.statusCode).toBe(400);
    });
  });

  it('answers 401 without a creator token', async () => {
    const exam = app.exams.put(makeExam({ questions }));
    expect((await insights(exam.id, {})).statusCode).toBe(401);
  });

  it('reports an exam nobody submitted with null figures and their reasons', async () => {
    const exam = app.exams.put(makeExam({ questions }));
    await startAttempt(app, exam.id);
    const report = InsightsReportSchema.parse((await insights(exam.id, creatorHeaders(app, exam.ownerId))).json());
    expect(report.cohort).toEqual({ invited: 1, started: 1, submitted: 0, graded: 0, pending: 0 });
    expect(report.candidates).toEqual([]);
    expect(report.test.mean).toBeNull();
    expect(report.reasons['test.mean']).toBeTruthy();
    expect(report.items[0]!.facility).toBeNull();
    expect(report.reasons['items.0.facility']).toBeTruthy();
  });

  it('still answers when llm-gateway is down, with AI reference, copy writing and Reasoning null and the reason', async () => {
    const { exam, owner, c } = await cohort();
    transcripts.down = true;
    try {
      const response = await insights(exam.id, owner);
      expect(response.statusCode).toBe(200);
      const report = InsightsReportSchema.parse(response.json());
      expect(report.items.map((x) => x.aiReference)).toEqual([null, null, null, null]);
      expect(report.reasons['items.0.aiReference']).toMatch(/transcripts could not be loaded/);
      expect(report.integrity.answersWithheld).toBeNull();
      expect(report.integrity.copyWritingPercent).toBeNull();
      expect(report.reasons['integrity.copyWritingPercent']).toMatch(/llm-gateway/);
      expect(report.candidates.every((x) => x.reasoning === null && x.badges.reasoning === null)).toBe(true);
      // Who asked the assistant is unknown too: no uplift figures and no assistant use, with the reason.
      expect(report.items[0]!.aiUplift).toMatchObject({ asked: 0, notAsked: 0, askedFacility: null, difference: null });
      expect(report.items[0]!.aiUplift!.caution).toMatch(/transcripts could not be loaded/);
      expect(report.reasons['items.0.aiUplift']).toMatch(/transcripts could not be loaded/);
      expect(report.aiUplift!.overall.difference).toBeNull();
      expect(report.reasons['overall.aiUplift']).toMatch(/llm-gateway/);
      expect(report.aiUplift!.topics.every((t) => t.askedFacility === null)).toBe(true);
      expect(report.aiUse!.buckets).toEqual([]);
      expect(report.reasons.aiUse).toMatch(/llm-gateway/);
      expect(report.reasons[`candidates.${c.resultId}.reasoning`]).toMatch(/transcripts/);
      // Figures that do not depend on the assistant are unaffected.
      expect(report.candidates.map((x) => x.rawScore)).toEqual([100, 50, 0]);
      expect(report.test.cronbachAlpha).toBeCloseTo(8 / 9, 10);
    } finally {
      transcripts.down = false;
    }
  });
});
