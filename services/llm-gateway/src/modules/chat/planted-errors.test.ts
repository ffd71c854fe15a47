import { randomUUID } from 'node:crypto';
import type { TranscriptMessage } from '@exam/domain/internal';
import { isPlantedTurn, plantedErrorOfInstruction, PLANTED_INSTRUCTION_MARK } from '@exam/domain/planted-errors';
import { QuestionSchema, toPublicQuestion, type Question } from '@exam/domain/question';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicFrames,
  errorBodies,
  openAiFrames,
  recordingHandler,
  sseResponse,
  type RecordedCall,
} from '../../testing/provider-mocks.ts';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const OPENAI = `${TEST_ENDPOINTS.openai}/chat/completions`;
const ANTHROPIC = `${TEST_ENDPOINTS.anthropic}/v1/messages`;
const server = setupServer();
const calls: RecordedCall[] = [];

/** The system prompt each provider was sent: OpenAI's first (system) message, Anthropic's `system`. */
const systemOf = (call: RecordedCall | undefined) => {
  const body = call?.body as Body | undefined;
  return String(body?.system ?? body?.messages?.[0]?.content ?? '');
};
const HONEST = ['Think about ', 'how each measure reacts to one extreme value.'];
/** A provider that does what the prompt asks: on a planted turn it states the error (the journeys' fake does too). */
const obedient = (frames: (texts: string[]) => string[]) => (call: RecordedCall) => {
  const planted = plantedErrorOfInstruction(systemOf(call));
  return sseResponse(frames(planted ? ['I am fairly sure it is ', planted.error, '.'] : HONEST));
};

const questions: Question[] = [
  QuestionSchema.parse({
    id: 'q-spread',
    type: 'mcq',
    title: 'Which measure resists outliers?',
    options: ['Mean', 'Median', 'Range'],
    correctAnswer: 'Median',
    plantedError: 'Mean',
  }),
  QuestionSchema.parse({
    id: 'q-se',
    type: 'short-answer',
    title: 'The standard error of a mean with sigma 10 and n 16?',
    acceptedAnswers: ['2.5'],
    plantedError: '3.5',
  }),
  QuestionSchema.parse({ id: 'q-none', type: 'short-answer', title: 'Define a p-value', acceptedAnswers: ['prob'] }),
];
const plantedExam = (share: number, ai: Record<string, unknown> = {}) =>
  makeExam({ questions, ai: { plantedErrors: { enabled: true, share }, stopSolutions: true, ...ai } });

describe('reliance calibration: planted errors in the candidate chat', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp();
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });

  const chat = (headers: Record<string, string>, questionIndex: number | null, extra: Record<string, unknown> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { message: 'Which one is it?', questionIndex, ...extra },
    });
  const ownerTranscript = async (ownerId: string, attemptId: string) =>
    (
      await app.inject({
        method: 'GET',
        url: `/api/llm/attempts/${attemptId}/transcript`,
        headers: creatorHeaders(app, ownerId),
      })
    ).json().messages as TranscriptMessage[];
  const replies = (messages: TranscriptMessage[]) => messages.filter((m) => m.role === 'assistant');

  it('asks for the error only on the turns isPlantedTurn picks, counting turns per question', async () => {
    server.use(recordingHandler(OPENAI, calls, obedient(openAiFrames)));
    const exam = plantedExam(0.5);
    const { attemptId, headers } = startAttempt(app, exam);
    // Turns about Q1 and Q2 interleaved: each question counts its own.
    const sent = [0, 1, 0, 0, 1, 0, 1, 0, 0, 0];
    for (const q of sent) expect((await chat(headers, q)).statusCode).toBe(200);

    const expected = sent.map((q, i) =>
      isPlantedTurn(attemptId, q, sent.slice(0, i).filter((x) => x === q).length, 0.5),
    );
    expect(calls.map((c) => systemOf(c).includes(PLANTED_INSTRUCTION_MARK))).toEqual(expected);
    // The share is one half: this attempt's ten turns have some of each, or the test would prove nothing.
    expect(expected).toContain(true);
    expect(expected).toContain(false);
    const errorOf = [questions[0]!.plantedError, questions[1]!.plantedError];
    calls.forEach((c, i) => {
      const planted = plantedErrorOfInstruction(systemOf(c));
      expect(planted).toEqual(expected[i] ? { error: errorOf[sent[i]!], questionNumber: sent[i]! + 1 } : undefined);
    });

    const stored = replies(await ownerTranscript(exam.ownerId, attemptId));
    expect(stored.map((m) => m.planted ?? null)).toEqual(
      sent.map((q, i) => (expected[i] ? { questionIndex: q, error: errorOf[q], verified: true } : null)),
    );
  });

  it('records a planted turn whose reply left the error out as not verified (OpenAI)', async () => {
    server.use(recordingHandler(OPENAI, calls, () => sseResponse(openAiFrames(HONEST))));
    const exam = plantedExam(1);
    const { attemptId, headers } = startAttempt(app, exam);
    expect(deltasOf(sseEvents((await chat(headers, 0)).payload)).join('')).toBe(HONEST.join(''));
    expect(systemOf(calls[0])).toContain(PLANTED_INSTRUCTION_MARK);
    const [reply] = replies(await ownerTranscript(exam.ownerId, attemptId));
    expect(reply?.planted).toEqual({ questionIndex: 0, error: 'Mean', verified: false });
  });

  it('plants through Anthropic, whose system prompt is a field of its own, and verifies a value written another way', async () => {
    server.use(
      recordingHandler(ANTHROPIC, calls, (call) =>
        plantedErrorOfInstruction(systemOf(call))
          ? sseResponse(anthropicFrames(['With sigma 10 and n 16 the standard error is 3.50', '.']))
          : sseResponse(anthropicFrames(HONEST)),
      ),
    );
    const exam = plantedExam(1, {});
    const anthropicExam = { ...exam, aiSettings: { ...exam.aiSettings, provider: 'anthropic' as const } };
    anthropicExam.aiSettings.model = 'claude-sonnet-4';
    const { attemptId, headers } = startAttempt(app, anthropicExam);
    const response = await chat(headers, 1);
    expect(sseEvents(response.payload).at(-1)?.type).toBe('done');
    expect(plantedErrorOfInstruction(systemOf(calls[0]))).toEqual({ error: '3.5', questionNumber: 2 });
    const [reply] = replies(await ownerTranscript(exam.ownerId, attemptId));
    expect(reply?.planted).toEqual({ questionIndex: 1, error: '3.5', verified: true });
  });

  it('never plants when the creator has not turned it on, or on a question without a planted error', async () => {
    server.use(recordingHandler(OPENAI, calls, obedient(openAiFrames)));
    const off = makeExam({ questions, ai: { plantedErrors: { enabled: false, share: 1 } } });
    const first = startAttempt(app, off);
    for (let i = 0; i < 3; i++) await chat(first.headers, 0);
    const on = plantedExam(1);
    const second = startAttempt(app, on);
    await chat(second.headers, 2);
    await chat(second.headers, null);
    expect(calls.map((c) => systemOf(c).includes(PLANTED_INSTRUCTION_MARK))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(replies(await ownerTranscript(off.ownerId, first.attemptId)).map((m) => m.planted)).toEqual([
      null,
      null,
      null,
    ]);
    expect(replies(await ownerTranscript(on.ownerId, second.attemptId)).map((m) => m.planted)).toEqual([null, null]);
  });

  it("maps the candidate's numbering to the exam's question by id (a shuffled snapshot)", async () => {
    server.use(recordingHandler(OPENAI, calls, obedient(openAiFrames)));
    const exam = plantedExam(1);
    // The candidate sees the short answer first: their Q1 is the exam's second question.
    const snapshot = [questions[1]!, questions[2]!, questions[0]!].map(toPublicQuestion);
    const { attemptId, headers } = startAttempt(app, exam, { questions: snapshot });
    await chat(headers, 0);
    await chat(headers, 1);
    await chat(headers, 2);
    expect(calls.map((c) => plantedErrorOfInstruction(systemOf(c)))).toEqual([
      { error: '3.5', questionNumber: 1 },
      undefined,
      { error: 'Mean', questionNumber: 3 },
    ]);
    expect(replies(await ownerTranscript(exam.ownerId, attemptId)).map((m) => m.planted?.error ?? null)).toEqual([
      '3.5',
      null,
      'Mean',
    ]);
  });

  it('decides a retried message (same clientMessageId) as its first try did', async () => {
    const exam = plantedExam(0.5);
    const { attemptId, headers } = startAttempt(app, exam);
    // A turn about Q1 that is planted while the next is not (found by the rule the gateway uses): a retry counted
    // as one more turn would not be asked for the error.
    const planted = (i: number) => isPlantedTurn(attemptId, 0, i, 0.5);
    const turn = Array.from({ length: 40 }, (_, i) => i).find((i) => planted(i) && !planted(i + 1))!;
    server.use(recordingHandler(OPENAI, calls, obedient(openAiFrames)));
    for (let i = 0; i < turn; i++) await chat(headers, 0);
    // The planted turn fails upstream, then the browser sends it again after another message about Q2.
    server.use(recordingHandler(OPENAI, calls, () => errorBodies.openai(500)));
    const clientMessageId = randomUUID();
    expect(sseEvents((await chat(headers, 0, { clientMessageId })).payload).at(-1)?.type).toBe('error');
    server.use(recordingHandler(OPENAI, calls, obedient(openAiFrames)));
    const retry = await chat(headers, 0, { clientMessageId });
    expect(deltasOf(sseEvents(retry.payload)).join('')).toBe('I am fairly sure it is Mean.');
    const asked = calls.slice(turn).map((c) => plantedErrorOfInstruction(systemOf(c))?.error ?? null);
    expect(asked).toEqual(['Mean', 'Mean']);
    const last = replies(await ownerTranscript(exam.ownerId, attemptId)).at(-1);
    expect(last?.planted).toEqual({ questionIndex: 0, error: 'Mean', verified: true });
  });

  it('keeps the "stop solutions" guardrail: a planted reply goes through, a reply giving the key away is stopped', async () => {
    const exam = plantedExam(1);
    const { attemptId, headers } = startAttempt(app, exam);
    server.use(recordingHandler(OPENAI, calls, obedient(openAiFrames)));
    expect(sseEvents((await chat(headers, 0)).payload).at(-1)?.type).toBe('done');
    server.use(
      recordingHandler(OPENAI, calls, () => sseResponse(openAiFrames(['Some say Mean, but it is the Med', 'ian.']))),
    );
    const leaked = sseEvents((await chat(headers, 0)).payload);
    expect(leaked.at(-1)?.type).toBe('withheld');
    expect(deltasOf(leaked).join('')).not.toContain('Median');
    const stored = replies(await ownerTranscript(exam.ownerId, attemptId));
    expect(stored.map((m) => [m.isWithheld, m.planted?.verified])).toEqual([
      [false, true],
      // What reached the candidate before the stop contained the error: they saw it.
      [true, true],
    ]);
  });

  it('leaves what was planted out of the candidate’s own transcript, and gives it to graders and services', async () => {
    server.use(recordingHandler(OPENAI, calls, obedient(openAiFrames)));
    const exam = plantedExam(1);
    const { attemptId, headers } = startAttempt(app, exam);
    await chat(headers, 0);
    const own = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    expect(own.statusCode).toBe(200);
    expect(own.payload).not.toContain('planted');
    expect(own.json().messages.map((m: TranscriptMessage) => m.content)).toEqual([
      'Which one is it?',
      'I am fairly sure it is Mean.',
    ]);

    const planted = { questionIndex: 0, error: 'Mean', verified: true };
    expect(replies(await ownerTranscript(exam.ownerId, attemptId))[0]?.planted).toEqual(planted);
    const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
    const one = await app.inject({
      method: 'GET',
      url: `/internal/attempts/${attemptId}/transcript`,
      headers: internal,
    });
    expect(replies(one.json().messages)[0]?.planted).toEqual(planted);
    const all = await app.inject({ method: 'GET', url: `/internal/exams/${exam.id}/transcripts`, headers: internal });
    const mine = all.json().transcripts.find((t: { attemptId: string }) => t.attemptId === attemptId);
    expect(replies(mine.messages)[0]?.planted).toEqual(planted);
  });
});
