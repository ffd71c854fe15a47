import { InsightsReportSchema } from '@exam/domain/insights';
import { GradingAgreementSchema, type GradingAgreement } from '@exam/domain/question-grading';
import { buildInternalExam } from '@exam/domain/testing';
import { computeAgreement, type RatingPair } from '@exam/psychometrics/agreement';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attempts } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { startFakeGateway, type FakeGateway } from '../../testing/fake-gateway.ts';
import { makeQuestionGradingExam, sitByExamIndex } from '../../testing/question-grading.ts';
import { createSuggestionsRepository } from './suggestions.repository.ts';

/** Known pairs on a 0–2 point question: the answer `Answer i` gets the suggestion PAIRS[i][0] and the mark PAIRS[i][1]. */
const PAIRS: Array<[number, number]> = [
  [0, 0],
  [1, 1],
  [2, 2],
  [2, 1],
  [1, 1],
  [0, 0],
  [2, 2],
  [1, 0],
  [2, 2],
  [0, 1],
  [1, 1],
  [2, 2],
];
const asPairs = (pairs: Array<[number, number]>): RatingPair[] =>
  pairs
    .map(([suggested, human]) => ({ suggested, human }))
    .sort((a, b) => a.suggested - b.suggested || a.human - b.human);

describe('GET /api/exams/:examId/grading/agreement', () => {
  let app: TestApp;
  let gateway: FakeGateway;
  beforeAll(async () => {
    gateway = await startFakeGateway();
    app = await buildTestApp({ deps: { gradingSuggester: gateway.suggester() } });
  });
  afterAll(async () => {
    await app.close();
    await gateway.close();
  });
  beforeEach(() => {
    // `Answer i`'s suggestion gives PAIRS[i][0] points, every sample alike.
    gateway.answer = (call) => {
      const i = Number(/Answer (\d+)/.exec(call.request.answer)?.[1]);
      const points = PAIRS[i]?.[0] ?? 0;
      return {
        samples: Array.from({ length: call.request.samples }, () => ({ points, rubric: [], rationale: '', quote: '' })),
      };
    };
  });

  const agreement = async (examId: string, ownerId: string): Promise<GradingAgreement> => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${examId}/grading/agreement`,
      headers: creatorHeaders(app, ownerId),
    });
    expect(response.statusCode).toBe(200);
    return GradingAgreementSchema.parse(response.json());
  };
  const suggest = async (resultId: string, examIndex: number, ownerId: string) => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/questions/${examIndex}/suggestion`,
      headers: creatorHeaders(app, ownerId),
      payload: { samples: 1 },
    });
    expect(response.statusCode).toBe(201);
  };
  const mark = async (resultId: string, candidateIndex: number, points: number | null, ownerId: string) => {
    const response = await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, ownerId),
      payload: { grading: [{ questionIndex: candidateIndex, points }] },
    });
    expect(response.statusCode).toBe(200);
  };

  it("gives computeAgreement's figures over the marked answers' newest current suggestions, in insights too", async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const results: string[] = [];
    for (let i = 0; i < PAIRS.length; i++)
      results.push((await sitByExamIndex(app, exam.id, { 0: `Answer ${i}` })).resultId);
    // Two more answers: one suggested but never marked, one marked but never suggested.
    const unmarked = (await sitByExamIndex(app, exam.id, { 0: 'Answer 0 again' })).resultId;
    const unsuggested = (await sitByExamIndex(app, exam.id, { 0: 'Answer 5 again' })).resultId;
    for (const resultId of [...results, unmarked]) await suggest(resultId, 0, exam.ownerId);
    for (const [i, resultId] of results.entries()) await mark(resultId, 0, PAIRS[i]![1], exam.ownerId);
    await mark(unsuggested, 0, 2, exam.ownerId);

    const repo = createSuggestionsRepository(app.database);
    const stored = (await repo.madeFor(exam.id, 0, [results[3]!]))[0]!;
    // A newer suggestion of the same answer that no longer matches it (not current) is passed over.
    await repo.insert({
      id: `stale-${results[3]}`,
      resultId: results[3]!,
      examId: exam.id,
      ownerId: exam.ownerId,
      questionIndex: 0,
      answerHash: `${stored.answerHash}-old`,
      points: 0,
      rubric: [],
      rationale: '',
      quote: '',
      uncertain: false,
      samplePoints: [0],
      provider: 'openai',
      model: 'gpt-test',
      inputTokens: 1,
      outputTokens: 1,
      batchId: null,
      createdAt: new Date(Date.now() + 60_000),
    });

    const figures = await agreement(exam.id, exam.ownerId);

    const expected = { questionIndex: 0, title: 'Why is the sky blue?', ...computeAgreement(asPairs(PAIRS)) };
    expect(figures).toEqual({ examId: exam.id, questions: [expected] });
    // The figures themselves: 9 of 12 agree exactly; each disagreement is one point.
    expect(figures.questions[0]).toMatchObject({ n: 12, exactAgreement: 0.75, meanAbsoluteDifference: 0.25 });
    expect(figures.questions[0]!.weightedKappaLow).not.toBeNull();

    const insights = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/insights`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(insights.statusCode).toBe(200);
    expect(InsightsReportSchema.parse(insights.json()).gradingAgreement).toEqual(figures.questions);

    // A new suggestion changes no result, yet the next insights show it (the pairs are part of the cache key).
    await suggest(unsuggested, 0, exam.ownerId);
    const after = await agreement(exam.id, exam.ownerId);
    expect(after.questions[0]!.n).toBe(13);
    const again = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/insights`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(InsightsReportSchema.parse(again.json()).gradingAgreement).toEqual(after.questions);
  });

  it('lists a question with suggestions and no marked answer with no figures, and says why', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const { resultId } = await sitByExamIndex(app, exam.id, { 0: 'Answer 1' });
    await suggest(resultId, 0, exam.ownerId);
    const figures = await agreement(exam.id, exam.ownerId);
    expect(figures.questions).toEqual([
      {
        questionIndex: 0,
        title: 'Why is the sky blue?',
        n: 0,
        exactAgreement: null,
        kappa: null,
        weightedKappa: null,
        weightedKappaLow: null,
        weightedKappaHigh: null,
        meanAbsoluteDifference: null,
        notes: expect.objectContaining({ kappa: expect.stringContaining('no answer') }),
      },
    ]);
    const unsuggested = app.exams.put(makeQuestionGradingExam());
    expect((await agreement(unsuggested.id, unsuggested.ownerId)).questions).toEqual([]);
  });

  it("numbers questions as the exam does, pairing each suggestion with the mark at the candidate's own index", async () => {
    const questions = Array.from({ length: 4 }, (_, i) => ({ id: `q${i}`, type: 'short-answer', title: `Q${i}` }));
    const exam = app.exams.put(buildInternalExam({ questions, shuffleQuestions: true }));
    const pairs: Array<[number, number]> = [];
    for (let c = 0; c < 6; c++) {
      const { resultId, attemptId } = await sitByExamIndex(
        app,
        exam.id,
        Object.fromEntries(questions.map((_q, i) => [i, `Answer ${c}`])),
      );
      await suggest(resultId, 2, exam.ownerId);
      const [row] = await app.db
        .select({ snapshot: attempts.examSnapshot })
        .from(attempts)
        .where(eq(attempts.id, attemptId));
      const candidateIndex = row!.snapshot.arrangement!.sourceIndices.indexOf(2);
      // Question 2 (the exam's) gets the human mark; the other questions get a different mark each, to be ignored.
      const human = Math.min(1, PAIRS[c]![1]);
      for (let q = 0; q < 4; q++)
        await mark(resultId, q, row!.snapshot.arrangement!.sourceIndices[q] === 2 ? human : 0, exam.ownerId);
      expect(candidateIndex).toBeGreaterThanOrEqual(0);
      pairs.push([Math.min(1, PAIRS[c]![0]), human]);
    }
    const figures = await agreement(exam.id, exam.ownerId);
    expect(figures.questions).toEqual([{ questionIndex: 2, title: 'Q2', ...computeAgreement(asPairs(pairs)) }]);
  });

  it("answers 404 for another creator's exam", async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/grading/agreement`,
      headers: creatorHeaders(app, 'someone-else'),
    });
    expect(response.statusCode).toBe(404);
  });
});
