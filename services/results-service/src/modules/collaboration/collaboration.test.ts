import type { CompactOperation } from '@exam/domain/answer-operations';
import {
  CollaborationJudgementSchema,
  CollaborationMessages,
  CollaborationProfileSchema,
  type CollaborationSuggestionReply,
  type CollaborationSuggestionRequest,
} from '@exam/domain/collaboration';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { InsightsReportSchema } from '@exam/domain/insights';
import type { TranscriptMessage } from '@exam/domain/internal';
import { SuggestionMessages } from '@exam/domain/question-grading';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';

const QUESTIONS = [
  {
    id: 'q1',
    type: 'short-answer',
    title: 'Largest organ',
    content: 'Name the largest organ of the human body and explain why it counts as an organ.',
    acceptedAnswers: [],
  },
  {
    id: 'q2',
    type: 'short-answer',
    title: 'Osmosis',
    content: 'Explain osmosis in one sentence.',
    acceptedAnswers: [],
  },
];
const REPLY_TEXT = 'The skin is the largest organ.'; // 30 characters

const message = (
  id: string,
  role: 'user' | 'assistant',
  content: string,
  questionIndex: number | null,
  minute: number,
) =>
  ({
    id,
    role,
    content,
    questionIndex,
    isError: false,
    files: [],
    createdAt: new Date(Date.UTC(2031, 0, 1, 9, minute)).toISOString(),
  }) satisfies TranscriptMessage;

const reply = (framing: number, verification: number): CollaborationSuggestionReply => ({
  framing: { level: framing, rationale: 'Pastes the question once, then asks why.', quotes: ['why does skin count?'] },
  verification: { level: verification, rationale: 'Pushes back once.', quotes: [] },
  provider: 'openai',
  model: 'gpt-test',
  usage: { inputTokens: 900, outputTokens: 120 },
});

describe('the collaboration profile', () => {
  let app: TestApp;
  const sent: Array<{ examId: string; request: CollaborationSuggestionRequest }> = [];
  const original = { suggest: undefined as unknown as TestApp['gradingUsage']['suggestCollaboration'] };
  beforeAll(async () => {
    app = await buildTestApp();
    original.suggest = app.gradingUsage.suggestCollaboration;
  });
  afterEach(() => {
    app.gradingUsage.suggestCollaboration = original.suggest;
    app.attemptTranscripts.down = false;
    sent.length = 0;
  });
  afterAll(() => app.close());

  /** The gateway answers with `answer` (a reply, or an AppError it maps to), recording what it was sent. */
  const gatewayAnswers = (answer: CollaborationSuggestionReply | AppError) => {
    app.gradingUsage.suggestCollaboration = async (examId, request) => {
      sent.push({ examId, request });
      if (answer instanceof AppError) throw answer;
      return answer;
    };
  };

  /**
   * One candidate who pasted question 1 into the assistant, asked why, pushed back, and took the 30-character reply
   * into their answer, replacing "skin" (4 characters) by typing "dermis": 26 of 30 kept. `messages: false` for one
   * who never used the assistant.
   */
  async function sit(opts: { messages?: boolean } = {}) {
    const exam = app.exams.put(makeExam({ questions: QUESTIONS }));
    const attempt = await startAttempt(app, exam.id, { name: 'Ada Lovelace', studentId: 'S-0012345' });
    const ops: CompactOperation[] =
      opts.messages === false
        ? [[1_000, 0, 'My own.', 0]]
        : [
            [1_000, 0, REPLY_TEXT, 2],
            [2_000, 4, 8, 'dermis', 0],
          ];
    const answer = opts.messages === false ? 'My own.' : 'The dermis is the largest organ.';
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/0`,
      headers: attempt.headers,
      payload: { answer, seq: 1, operations: { start: 0, ops } },
    });
    expect(saved.statusCode).toBe(200);
    if (opts.messages !== false)
      app.attemptTranscripts.put(attempt.attemptId, [
        message('u1', 'user', QUESTIONS[0]!.content, 0, 1),
        message('a1', 'assistant', REPLY_TEXT, 0, 2),
        message('u2', 'user', 'I am Ada Lovelace: why does skin count? That is wrong, surely', 0, 3),
        message('a2', 'assistant', 'It is made of several tissues.', 0, 4),
      ]);
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    const resultId = submitted.json<{ resultId: string }>().resultId;
    await app.processRecords.processOf(resultId);
    return { exam, resultId, owner: creatorHeaders(app, exam.ownerId) };
  }

  const get = (resultId: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/results/${resultId}/collaboration`, headers });
  const suggest = (resultId: string, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: `/api/results/${resultId}/collaboration/suggestions`, headers });
  const setLevel = (resultId: string, dimension: string, level: unknown, headers: Record<string, string>) =>
    app.inject({
      method: 'PUT',
      url: `/api/results/${resultId}/collaboration/${dimension}`,
      headers,
      payload: { level },
    });
  const dimensionOf = (body: unknown, name: string) =>
    CollaborationProfileSchema.parse(body).dimensions.find((d) => d.dimension === name)!;

  it('shows the four dimensions: process figures from the timeline, no judgement yet, no gap without sections', async () => {
    const { resultId, owner } = await sit();
    const response = await get(resultId, owner);
    expect(response.statusCode).toBe(200);
    const profile = CollaborationProfileSchema.parse(response.json());
    expect(profile.dimensions.map((d) => [d.dimension, d.basis])).toEqual([
      ['framing', 'judgement'],
      ['verification', 'judgement'],
      ['integration', 'process'],
      ['independence', 'process'],
    ]);
    expect(profile.unavailable).toEqual([]);
    const framing = dimensionOf(response.json(), 'framing');
    expect(framing).toMatchObject({ level: null, judgement: null, reason: CollaborationMessages.suggestFirst });
    expect(framing.figures).toEqual({ messagesSent: 2, questionPasteShare: 0.5, askingShare: 0.5, meanWords: 14 });
    expect(framing.evidence).toEqual([
      {
        kind: 'event',
        text: 'Pasted the text of question 1',
        messageId: 'u1',
        at: message('u1', 'user', '', 0, 1).createdAt,
      },
    ]);
    const verification = dimensionOf(response.json(), 'verification');
    expect(verification.figures).toMatchObject({ replies: 2, pushbackShare: 1, pushbackMessages: 1 });
    expect(verification.evidence.map((e) => e.messageId)).toEqual(['u2']);
    expect(dimensionOf(response.json(), 'integration')).toMatchObject({
      level: 1,
      reason: null,
      figures: { assistantInserted: 30, assistantKept: 26, keptShare: 26 / 30, assistantShareOfAnswers: 26 / 32 },
    });
    expect(dimensionOf(response.json(), 'independence')).toMatchObject({
      level: null,
      reason: CollaborationMessages.noAbilityFit,
      figures: { gapEstimate: null, gapLow: null, gapHigh: null },
    });
  });

  it('answers 404 to another creator, 401 without a token and 400 for a malformed id', async () => {
    const { resultId, owner } = await sit();
    const stranger = creatorHeaders(app, 'someone-else');
    expect((await get(resultId, stranger)).statusCode).toBe(404);
    expect((await suggest(resultId, stranger)).statusCode).toBe(404);
    expect((await setLevel(resultId, 'framing', 2, stranger)).statusCode).toBe(404);
    expect((await get(resultId, {})).statusCode).toBe(401);
    expect((await get('x'.repeat(65), owner)).statusCode).toBe(400);
    expect(sent).toHaveLength(0);
  });

  it('names the transcript unavailable instead of calling the candidate silent', async () => {
    const { resultId, owner } = await sit();
    app.attemptTranscripts.down = true;
    const response = await get(resultId, owner);
    expect(response.statusCode).toBe(200);
    expect(response.json().unavailable).toContain('assistant');
    expect(dimensionOf(response.json(), 'framing').reason).toBe(CollaborationMessages.assistantUnavailable);
    const refused = await suggest(resultId, owner);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.message).toBe(CollaborationMessages.assistantUnavailable);
  });

  it('asks the gateway with the conversation masked and stores the suggestion undecided, with its quotes', async () => {
    const { exam, resultId, owner } = await sit();
    gatewayAnswers(reply(1, 3));
    const response = await suggest(resultId, owner);
    expect(response.statusCode).toBe(201);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.examId).toBe(exam.id);
    const request = sent[0]!.request;
    expect(request.questions.map((q) => q.index)).toEqual([0, 1]);
    expect(request.messages.map((m) => [m.id, m.role, m.questionIndex])).toEqual([
      ['u1', 'user', 0],
      ['a1', 'assistant', 0],
      ['u2', 'user', 0],
      ['a2', 'assistant', 0],
    ]);
    const text = JSON.stringify(request);
    for (const secret of ['Ada', 'Lovelace', 'S-0012345', resultId]) expect(text).not.toContain(secret);
    expect(request.messages[2]!.content).toContain('[candidate]');
    expect(request.figures).toMatchObject({ messagesSent: 2, pushbackMessages: 1 });

    const framing = dimensionOf(response.json(), 'framing');
    expect(framing.level).toBeNull();
    expect(framing.reason).toBe(CollaborationMessages.undecided);
    expect(framing.judgement).toMatchObject({ suggestedLevel: 1, status: 'suggested', finalLevel: null });
    expect(framing.evidence[0]).toMatchObject({ kind: 'quote', text: 'why does skin count?', messageId: 'u2' });
    expect(dimensionOf(response.json(), 'verification').judgement).toMatchObject({ suggestedLevel: 3 });
    expect((await get(resultId, owner)).json()).toEqual(response.json());
  });

  it('accepts a level equal to the suggestion, edits another, and keeps a decided level through a new suggestion', async () => {
    const { resultId, owner } = await sit();
    const before = await setLevel(resultId, 'framing', 2, owner);
    expect(before.statusCode).toBe(409);
    expect(before.json().error.message).toBe(CollaborationMessages.suggestFirst);

    gatewayAnswers(reply(1, 3));
    await suggest(resultId, owner);
    const accepted = await setLevel(resultId, 'framing', 1, owner);
    expect(accepted.statusCode).toBe(200);
    expect(CollaborationJudgementSchema.parse(accepted.json())).toMatchObject({
      status: 'accepted',
      finalLevel: 1,
      decidedBy: expect.stringContaining('@example.test'),
    });
    const edited = await setLevel(resultId, 'verification', 4, owner);
    expect(edited.json()).toMatchObject({ status: 'edited', suggestedLevel: 3, finalLevel: 4 });

    // A new suggestion: framing (decided at 1) keeps its level and now differs from the suggestion (edited);
    // verification (decided at 4) now equals it (accepted).
    gatewayAnswers(reply(2, 4));
    const again = await suggest(resultId, owner);
    expect(dimensionOf(again.json(), 'framing')).toMatchObject({
      level: 1,
      reason: null,
      judgement: { suggestedLevel: 2, finalLevel: 1, status: 'edited' },
    });
    expect(dimensionOf(again.json(), 'verification').judgement).toMatchObject({
      suggestedLevel: 4,
      finalLevel: 4,
      status: 'accepted',
    });
  });

  it('refuses a level outside 0–4 and a dimension no grader judges with 400', async () => {
    const { resultId, owner } = await sit();
    for (const [dimension, level] of [
      ['framing', 7],
      ['framing', 1.5],
      ['framing', '2'],
      ['integration', 2],
      ['independence', 2],
    ] as const) {
      const response = await setLevel(resultId, dimension, level, owner);
      expect(response.statusCode, `${dimension} ${level}`).toBe(400);
    }
  });

  it('refuses a suggestion for a candidate who never used the assistant with 400, calling nothing', async () => {
    const { resultId, owner } = await sit({ messages: false });
    const profile = await get(resultId, owner);
    expect(dimensionOf(profile.json(), 'framing').reason).toBe(CollaborationMessages.noTranscript);
    expect(dimensionOf(profile.json(), 'integration')).toMatchObject({
      level: null,
      reason: CollaborationMessages.nothingTaken,
    });
    const response = await suggest(resultId, owner);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(CollaborationMessages.noTranscript);
    expect(sent).toHaveLength(0);
  });

  it.each([
    [new AppError(ErrorCode.CONFLICT, SuggestionMessages.noProvider), 409],
    [new AppError(ErrorCode.RATE_LIMITED, SuggestionMessages.budgetExhausted), 429],
    [new AppError(ErrorCode.UPSTREAM, 'The AI provider failed: 500'), 502],
    [new AppError(ErrorCode.UNAVAILABLE, CollaborationMessages.gatewayDown), 503],
  ])('passes the gateway’s refusal on with its message (%s → %i) and stores nothing', async (error, status) => {
    const { resultId, owner } = await sit();
    gatewayAnswers(error);
    const response = await suggest(resultId, owner);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toBe(error.message);
    expect(dimensionOf((await get(resultId, owner)).json(), 'framing').judgement).toBeNull();
  });

  it('gives insights each candidate’s levels, the cohort’s distribution and the agreement, fresh after a decision', async () => {
    const { exam, resultId, owner } = await sit();
    // A candidate of another exam who never used the assistant: no profile, and none for that cohort.
    const silent = await sit({ messages: false });
    const insights = async (examId: string, headers = owner) => {
      const response = await app.inject({ method: 'GET', url: `/api/exams/${examId}/insights`, headers });
      expect(response.statusCode).toBe(200);
      return InsightsReportSchema.parse(response.json());
    };
    const first = await insights(exam.id);
    expect(first.candidates.find((c) => c.resultId === resultId)!.collaboration).toEqual({
      framing: null,
      verification: null,
      integration: 1,
      independence: null,
    });
    expect(first.collaboration!.dimensions.find((d) => d.dimension === 'integration')).toEqual({
      dimension: 'integration',
      levels: [0, 1, 0, 0, 0],
      unmeasured: 0,
    });

    gatewayAnswers(reply(1, 3));
    await suggest(resultId, owner);
    await setLevel(resultId, 'framing', 1, owner);
    await setLevel(resultId, 'verification', 2, owner);
    const decided = await insights(exam.id);
    expect(decided.candidates[0]!.collaboration).toMatchObject({ framing: 1, verification: 2 });
    expect(decided.collaboration!.agreement).toEqual([
      { dimension: 'framing', decided: 1, accepted: 1, exactAgreement: 1, weightedKappa: null },
      { dimension: 'verification', decided: 1, accepted: 0, exactAgreement: 0, weightedKappa: null },
    ]);

    const none = await insights(silent.exam.id, silent.owner);
    expect(none.candidates[0]!.collaboration).toBeNull();
    expect(none.collaboration).toBeNull();
  });
});
