import { CandidateResultSchema } from '@exam/domain/result';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeExam } from '../../testing/exams.ts';
import { sitExam } from '../../testing/sitting.ts';

/** Two keyed questions, so a submission is graded at once. */
const keyedQuestions = [
  { id: 'q1', type: 'mcq', title: 'Cell powerhouse', options: ['Nucleus', CANARY], correctAnswer: CANARY, points: 2 },
  { id: 'q2', type: 'short-answer', title: 'Largest organ', acceptedAnswers: [`${CANARY}-short`] },
];

describe('GET /api/attempts/{attemptId}/result', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const read = (attempt: { attemptId: string; headers: Record<string, string> }, headers = attempt.headers) =>
    app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}/result`, headers });

  async function sat(exam: ReturnType<typeof makeExam>, answers: Record<number, string> = { 0: 'Nucleus' }) {
    app.exams.put(exam);
    const { resultId, attempt } = await sitExam(app, exam.id, answers);
    const release = (released = true) =>
      app.inject({
        method: 'POST',
        url: `/api/results/${resultId}/release`,
        headers: creatorHeaders(app, exam.ownerId),
        payload: { released },
      });
    return { resultId, attempt, release };
  }

  it('stays hidden until the creator releases it (on-release), then shows points and feedback without the keys', async () => {
    const exam = makeExam({ questions: keyedQuestions, releasePolicy: 'on-release' });
    const { attempt, release, resultId } = await sat(exam);
    const hidden = await read(attempt);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().error.message).toBe('Your result has not been released yet');

    await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: { grading: [{ questionIndex: 1, points: 0, feedback: 'Think bigger' }] },
    });
    expect((await release()).statusCode).toBe(200);
    const shown = await read(attempt);
    expect(shown.statusCode).toBe(200);
    const body = CandidateResultSchema.parse(shown.json());
    expect(body).toMatchObject({ score: 0, maxScore: 3, percentage: 0, status: 'released', userName: 'Ada Lovelace' });
    expect(body.releasedAt).not.toBeNull();
    expect(body.questions).toEqual([
      {
        title: 'Cell powerhouse',
        questionType: 'mcq',
        answer: 'Nucleus',
        points: 0,
        maxPoints: 2,
        feedback: '',
        correctAnswer: null,
        content: '',
        markedBy: 'key',
      },
      {
        title: 'Largest organ',
        questionType: 'short-answer',
        answer: 'No answer provided',
        points: 0,
        maxPoints: 1,
        feedback: 'Think bigger',
        correctAnswer: null,
        content: '',
        markedBy: 'grader',
      },
    ]);
    expect(shown.body).not.toContain(CANARY);

    await release(false);
    expect((await read(attempt)).statusCode).toBe(403);
  });

  it('explains each released question: its text and passage, the code in its language, the rubric criteria and the parts right, never the key', async () => {
    const GAP_KEYS = ['mitochondria-KEY', 'ribosome-KEY', 'nucleus-KEY'];
    const exam = makeExam({
      releasePolicy: 'on-release',
      passages: [{ id: 'cell', title: 'The cell', content: 'Cells have organelles.' }],
      rubrics: [
        {
          id: 'essay-rubric',
          title: 'Essay',
          criteria: [
            { id: 'thesis', description: 'Clear thesis', points: 1.5 },
            { id: 'sources', description: 'Cites sources', points: 2.5 },
          ],
        },
      ],
      questions: [
        {
          id: 'gaps',
          type: 'fill-blanks',
          title: 'Organelles',
          content: 'Read **the passage** first.',
          passageId: 'cell',
          gapText: 'Energy: [[1]]; proteins: [[2]]; DNA: [[3]].',
          blanks: GAP_KEYS.map((k) => ({ kind: 'text', accepted: [k] })),
          scoring: 'partial',
          points: 3,
        },
        {
          id: 'essay',
          type: 'essay',
          title: 'Explain osmosis',
          content: 'In 200 words.',
          rubricId: 'essay-rubric',
          points: 4,
        },
        { id: 'code', type: 'coding', title: 'Reverse a list', content: 'Write `rev`.', language: 'python', points: 2 },
      ],
    });
    const code = 'def rev(xs):\n    return xs[::-1]';
    const { attempt, release, resultId } = await sat(exam, {
      0: JSON.stringify(['mitochondria-KEY', 'ribosome-KEY', 'wrong']),
      1: 'Water moves across a membrane.',
      2: code,
    });
    // Nothing before the release: not the text, not the criteria, not the points.
    const before = await read(attempt);
    expect(before.statusCode).toBe(403);
    expect(before.body).not.toContain('Clear thesis');

    const marked = await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: {
        grading: [
          { questionIndex: 1, points: 1.5, criteria: ['thesis'], feedback: 'Name your sources.' },
          { questionIndex: 2, points: 2, feedback: '' },
        ],
      },
    });
    expect(marked.statusCode).toBe(200);
    expect((await release()).statusCode).toBe(200);
    const shown = await read(attempt);
    expect(shown.statusCode).toBe(200);
    const body = CandidateResultSchema.parse(shown.json());
    expect(body.passages).toEqual([{ id: 'cell', title: 'The cell', content: 'Cells have organelles.' }]);
    const [gaps, essay, coding] = body.questions;
    expect(gaps).toMatchObject({
      content: 'Read **the passage** first.',
      passageId: 'cell',
      points: 2,
      markedBy: 'key',
      partialCredit: { kind: 'gaps', right: 2, of: 3, rule: 'partial' },
      correctAnswer: null,
    });
    expect(essay).toMatchObject({
      content: 'In 200 words.',
      points: 1.5,
      feedback: 'Name your sources.',
      markedBy: 'grader',
      criteria: [
        { description: 'Clear thesis', maxPoints: 1.5, points: 1.5 },
        { description: 'Cites sources', maxPoints: 2.5, points: 0 },
      ],
    });
    expect(essay!.partialCredit).toBeUndefined();
    expect(coding).toMatchObject({ answer: code, language: 'python', markedBy: 'grader', points: 2 });
    // The third gap's key never reaches the candidate (the two they typed are their own answer).
    expect(shown.body).not.toContain('nucleus-KEY');
  });

  it('shows the answer keys only when the exam allows it', async () => {
    const exam = makeExam({ questions: keyedQuestions, releasePolicy: 'immediately', showAnswerKeys: true });
    const { attempt } = await sat(exam);
    const body = CandidateResultSchema.parse((await read(attempt)).json());
    expect(body.questions.map((q) => q.correctAnswer)).toEqual([CANARY, `${CANARY}-short`]);
    expect(body.status).toBe('graded');

    app.exams.put({ ...exam, showAnswerKeys: false });
    expect((await read(attempt)).body).not.toContain(CANARY);
  });

  it('shows an immediately-released result once nothing awaits a grader', async () => {
    const exam = makeExam({ releasePolicy: 'immediately' });
    const { attempt, resultId } = await sat(exam);
    const waiting = await read(attempt);
    expect(waiting.statusCode).toBe(403);
    expect(waiting.json().error.message).toBe('Your result is awaiting grading');
    await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: { grading: [2, 3].map((questionIndex) => ({ questionIndex, points: 1 })) },
    });
    expect((await read(attempt)).json()).toMatchObject({ score: 2, maxScore: 4, percentage: 50, status: 'graded' });
  });

  it("never shows results of an exam whose policy is 'never', even released, and follows the exam's current policy", async () => {
    const exam = makeExam({ questions: keyedQuestions, releasePolicy: 'on-release' });
    const { attempt, release } = await sat(exam);
    await release();
    expect((await read(attempt)).statusCode).toBe(200);
    app.exams.put({ ...exam, releasePolicy: 'never' });
    const refused = await read(attempt);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Results are not released for this exam');
  });

  it('falls back to the policy in the snapshot when exam-service no longer has the exam', async () => {
    const exam = makeExam({ questions: keyedQuestions, releasePolicy: 'immediately' });
    const { attempt } = await sat(exam);
    app.exams.remove(exam.id);
    expect((await read(attempt)).statusCode).toBe(200);
  });

  it('answers 404 before the attempt is submitted', async () => {
    const exam = app.exams.put(makeExam({ releasePolicy: 'immediately' }));
    const attempt = await startAttempt(app, exam.id);
    const response = await read(attempt);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('This attempt has not been submitted yet');
  });

  it("answers 404 to another candidate's token and 403 to the exam's creator", async () => {
    const exam = makeExam({ questions: keyedQuestions, releasePolicy: 'immediately', showAnswerKeys: true });
    const { attempt } = await sat(exam);
    const other = await startAttempt(app, exam.id);
    const intruder = await read(attempt, other.headers);
    expect(intruder.statusCode).toBe(404);
    expect(intruder.body).not.toContain(CANARY);
    expect((await read(attempt, creatorHeaders(app, exam.ownerId))).statusCode).toBe(403);
  });

  describe('where the assistant was wrong on purpose (reliance calibration)', () => {
    const plantedQuestions = [
      { ...keyedQuestions[0]!, plantedError: 'Nucleus' },
      { ...keyedQuestions[1]!, plantedError: 'Liver' },
    ];
    const turn = (questionIndex: number, error: string, verified: boolean) => ({
      id: `m-${questionIndex}-${verified}`,
      role: 'assistant' as const,
      content: `It is ${error}.`,
      questionIndex,
      isError: false,
      files: [],
      createdAt: new Date().toISOString(),
      planted: { questionIndex, error, verified },
    });

    it('tells the candidate, once the result is released, the errors the assistant really stated', async () => {
      const exam = makeExam({ questions: plantedQuestions, releasePolicy: 'on-release' });
      const { attempt, release } = await sat(exam);
      app.attemptTranscripts.put(attempt.attemptId, [turn(0, 'Nucleus', true), turn(1, 'Liver', false)]);
      expect((await read(attempt)).statusCode).toBe(403);
      await release();
      const body = CandidateResultSchema.parse((await read(attempt)).json());
      expect(body.questions.map((q) => q.plantedError)).toEqual(['Nucleus', undefined]);
      expect(body.plantedUnavailable).toBeUndefined();
    });

    it('shows the result without them, saying so, when llm-gateway cannot be asked', async () => {
      const exam = makeExam({ questions: plantedQuestions, releasePolicy: 'immediately' });
      const { attempt } = await sat(exam);
      app.attemptTranscripts.down = true;
      try {
        const response = await read(attempt);
        expect(response.statusCode).toBe(200);
        const body = CandidateResultSchema.parse(response.json());
        expect(body.plantedUnavailable).toBe(true);
        expect(body.questions.map((q) => q.plantedError)).toEqual([undefined, undefined]);
      } finally {
        app.attemptTranscripts.down = false;
      }
    });

    it('does not ask llm-gateway about an exam none of whose questions could carry a planted error', async () => {
      const exam = makeExam({ questions: keyedQuestions, releasePolicy: 'immediately' });
      const { attempt } = await sat(exam);
      await read(attempt);
      expect(app.attemptTranscripts.calls).not.toContain(attempt.attemptId);
    });
  });
});
