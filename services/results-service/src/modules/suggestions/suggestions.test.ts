import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import {
  GradingSuggestionSchema,
  SUGGESTION_SAMPLES_DEFAULT,
  SuggestionMessages,
  type SuggestionSample,
} from '@exam/domain/question-grading';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpGradingSuggester } from '../../adapters/grading-suggestions.ts';
import { gradingSuggestions } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { startFakeGateway, type FakeGateway } from '../../testing/fake-gateway.ts';
import { makeQuestionGradingExam, sitByExamIndex } from '../../testing/question-grading.ts';

const sample = (points: number, quote = '', rubric: SuggestionSample['rubric'] = []): SuggestionSample => ({
  points,
  rubric,
  rationale: `Worth ${points}.`,
  quote,
});

/** A port nothing listens on: the gateway is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

describe('POST /api/results/:resultId/questions/:questionIndex/suggestion', () => {
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
    gateway.calls.length = 0;
    gateway.answer = (call) => ({ samples: Array.from({ length: call.request.samples }, () => sample(1)) });
  });

  const suggest = (resultId: string, questionIndex: number, ownerId: string, payload?: object) =>
    app.inject({
      method: 'POST',
      url: `/api/results/${resultId}/questions/${questionIndex}/suggestion`,
      headers: creatorHeaders(app, ownerId),
      ...(payload ? { payload } : {}),
    });
  const storedFor = (resultId: string) =>
    app.db.select().from(gradingSuggestions).where(eq(gradingSuggestions.resultId, resultId));

  it('combines the samples into one suggestion, stores it with its hash, usage and model, and answers 201', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const answer = 'Rayleigh scattering: shorter wavelengths scatter more.';
    const { resultId } = await sitByExamIndex(app, exam.id, { 0: answer });
    gateway.answer = () => ({
      samples: [sample(1, 'no such words'), sample(2, 'shorter   wavelengths\nscatter more'), sample(2)],
      usage: { inputTokens: 900, outputTokens: 150 },
    });

    const response = await suggest(resultId, 0, exam.ownerId);

    expect(response.statusCode).toBe(201);
    const suggestion = GradingSuggestionSchema.parse(response.json());
    expect(suggestion).toMatchObject({
      resultId,
      questionIndex: 0,
      points: 2,
      rubric: [],
      rationale: 'Worth 2.',
      // Found in the answer although the model re-wrapped it.
      quote: 'shorter   wavelengths\nscatter more',
      uncertain: true,
      samplePoints: [1, 2, 2],
      provider: 'openai',
      model: 'gpt-test',
      current: true,
    });
    expect(gateway.calls).toHaveLength(1);
    expect(gateway.calls[0]!.request).toEqual({
      question: { title: 'Why is the sky blue?', content: '', type: 'short-answer', maxPoints: 2, rubric: null },
      answer,
      samples: SUGGESTION_SAMPLES_DEFAULT,
    });
    const [row] = await storedFor(resultId);
    expect(row).toMatchObject({
      id: suggestion.id,
      examId: exam.id,
      ownerId: exam.ownerId,
      answerHash: createHash('sha256').update(answer).digest('hex'),
      inputTokens: 900,
      outputTokens: 150,
      batchId: null,
    });
  });

  it("never sends the candidate's name, candidate ID or e-mail, even where the answer itself contains them", async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const answer =
      'Answer by Grace Brewster Hopper (candidate S-20240917, grace.hopper@navy.example).\n' +
      'As HOPPER I say: Rayleigh scattering. Signed, grace hopper, 20240917, contact: g.h+exam@uni.example.org';
    const { resultId } = await sitByExamIndex(
      app,
      exam.id,
      { 0: answer },
      {
        name: 'Grace Brewster Hopper',
        studentId: 'S-20240917',
      },
    );

    expect((await suggest(resultId, 0, exam.ownerId)).statusCode).toBe(201);

    const call = gateway.calls[0]!;
    const sent = JSON.stringify(call.request).toLowerCase();
    for (const secret of [
      'grace',
      'brewster',
      'hopper',
      's-20240917',
      '20240917',
      '@navy.example',
      'g.h+exam',
      '@uni.',
    ]) {
      expect(sent).not.toContain(secret);
    }
    expect(call.request.answer).toBe(
      'Answer by [candidate] (candidate [candidate], [candidate]).\n' +
        // The whole name as written is one mask; its parts written apart (any case) are masked one by one.
        'As [candidate] I say: Rayleigh scattering. Signed, [candidate] [candidate], [candidate], contact: [candidate]',
    );
    // Nor does anything else of the request name the result, the attempt or the candidate.
    const headers = JSON.stringify(call.headers).toLowerCase();
    expect(headers).not.toContain('hopper');
    expect(headers).not.toContain(resultId.toLowerCase());
    expect(sent).not.toContain(resultId.toLowerCase());
  });

  it('keeps a quote around a masked name, and drops one the answer does not contain', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const { resultId } = await sitByExamIndex(
      app,
      exam.id,
      { 0: 'Ada Lovelace thinks it is scattering.' },
      {
        name: 'Ada Lovelace',
      },
    );
    gateway.answer = () => ({ samples: [sample(1, '[candidate] thinks it is scattering')] });
    expect((await suggest(resultId, 0, exam.ownerId)).json()).toMatchObject({
      quote: '[candidate] thinks it is scattering',
    });
    gateway.answer = () => ({ samples: [sample(1, 'the candidate clearly understands optics')] });
    expect((await suggest(resultId, 0, exam.ownerId)).json()).toMatchObject({ quote: '' });
  });

  it('suggests per rubric criterion from an upload’s text, and samples as often as asked', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const { resultId } = await sitByExamIndex(
      app,
      exam.id,
      {},
      {
        files: { 2: { name: 'essay.txt', content: Buffer.from('Thesis: blue.\nSources: Strutt 1871.') } },
      },
    );
    gateway.answer = () => ({
      samples: [
        sample(0, 'Sources: Strutt 1871.', [
          { criterionId: 'thesis', points: 1.5 },
          { criterionId: 'sources', points: 2.5 },
        ]),
        sample(0, '', [
          { criterionId: 'thesis', points: 1.5 },
          { criterionId: 'sources', points: 1 },
        ]),
      ],
    });

    const response = await suggest(resultId, 2, exam.ownerId, { samples: 2 });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      points: 2.5,
      rubric: [
        { criterionId: 'thesis', points: 1.5 },
        { criterionId: 'sources', points: 1 },
      ],
      samplePoints: [4, 2.5],
      uncertain: true,
    });
    expect(gateway.calls[0]!.request).toMatchObject({
      answer: 'Thesis: blue.\nSources: Strutt 1871.',
      samples: 2,
      question: { type: 'file-upload', maxPoints: 4, rubric: { id: 'essay-rubric' } },
    });
  });

  it('refuses a question a key decides, and an answer with no text, with 400 and without asking the gateway', async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const { resultId } = await sitByExamIndex(app, exam.id, { 0: '   ', 1: 'Paris' });

    const keyed = await suggest(resultId, 1, exam.ownerId);
    expect(keyed.statusCode).toBe(400);
    expect(keyed.json().error.message).toBe(SuggestionMessages.notHumanGraded);
    const blank = await suggest(resultId, 0, exam.ownerId);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toBe(SuggestionMessages.unreadable);
    // An upload question answered without a file has nothing to read either.
    expect((await suggest(resultId, 2, exam.ownerId)).json().error.message).toBe(SuggestionMessages.unreadable);
    const tooMany = await suggest(resultId, 0, exam.ownerId, { samples: 9 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.issues?.[0]?.path).toContain('samples');
    expect(gateway.calls).toHaveLength(0);
    expect(await storedFor(resultId)).toHaveLength(0);
  });

  it("answers 404 for another creator's result, an unknown result and a question the exam does not have", async () => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const { resultId } = await sitByExamIndex(app, exam.id, { 0: 'scattering' });
    expect((await suggest(resultId, 0, 'someone-else')).statusCode).toBe(404);
    expect((await suggest('no-such-result', 0, exam.ownerId)).statusCode).toBe(404);
    expect((await suggest(resultId, 7, exam.ownerId)).statusCode).toBe(404);
    expect(gateway.calls).toHaveLength(0);
  });

  it.each([
    [409, SuggestionMessages.noProvider],
    [429, SuggestionMessages.budgetExhausted],
    [502, 'The provider answered 500: overloaded'],
  ] as const)('answers the gateway’s %i with the same status and message, storing nothing', async (status, message) => {
    const exam = app.exams.put(makeQuestionGradingExam());
    const { resultId } = await sitByExamIndex(app, exam.id, { 0: 'scattering' });
    gateway.answer = () => ({ status, message });
    const response = await suggest(resultId, 0, exam.ownerId);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toBe(message);
    expect(await storedFor(resultId)).toHaveLength(0);
  });

  it('answers 503 saying marks can still be given by hand when the gateway cannot be reached', async () => {
    const down = createHttpGradingSuggester(`http://127.0.0.1:${await closedPort()}`, TEST_SECRETS.INTERNAL_TOKEN, {
      timeoutMs: 2000,
    });
    const offline = await buildTestApp({ deps: { gradingSuggester: down } });
    try {
      const exam = offline.exams.put(makeQuestionGradingExam());
      const { resultId } = await sitByExamIndex(offline, exam.id, { 0: 'scattering' });
      const response = await offline.inject({
        method: 'POST',
        url: `/api/results/${resultId}/questions/0/suggestion`,
        headers: creatorHeaders(offline, exam.ownerId),
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().error.message).toBe(SuggestionMessages.gatewayDown);
    } finally {
      await offline.close();
      down.close();
    }
  });
});
