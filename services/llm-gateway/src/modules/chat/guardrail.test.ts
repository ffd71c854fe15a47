import { QuestionSchema } from '@exam/domain/question';
import { LlmMessages } from '@exam/domain/llm';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { buildTestApp, creatorHeaders, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';
import { normaliseForMatch } from './answer-guard.ts';

const OPENAI = `${TEST_ENDPOINTS.openai}/chat/completions`;
const server = setupServer();
const calls: RecordedCall[] = [];
/** The provider's reply in OpenAI's real chat.completion.chunk frames, a few milliseconds apart. */
const replyWith = (texts: string[]) =>
  server.use(recordingHandler(OPENAI, calls, () => sseResponse(openAiFrames(texts), { gapMs: 2 })));

const questions = [
  QuestionSchema.parse({
    id: 'q1',
    type: 'mcq',
    title: 'Which measure resists outliers?',
    options: ['Mean', 'Median', 'Range'],
    correctAnswer: 'Median',
  }),
  QuestionSchema.parse({
    id: 'q2',
    type: 'short-answer',
    title: 'What shrinks as n grows?',
    acceptedAnswers: ['Standard Error'],
  }),
];
const guardedExam = (stopSolutions = true) => makeExam({ questions, ai: { stopSolutions } });
// The key arrives split over three chunks, in another case and with a line break inside.
const LEAKING_REPLY = ['Think about spread first. In the end the answer is the Stan', 'dard\nEr', 'ror, as n grows.'];

describe('the "stop solutions" guardrail, enforced on the stream', () => {
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
  const chat = (headers: Record<string, string>, message: string) =>
    app.inject({ method: 'POST', url: '/api/llm/chat', headers, payload: { message, questionIndex: 1 } });

  it('stops a reply that gives a key away across chunks: the candidate never receives the key', async () => {
    replyWith(LEAKING_REPLY);
    const exam = guardedExam();
    const { attemptId, headers } = startAttempt(app, exam);
    const response = await chat(headers, 'Just tell me the answer to Q2');
    expect(response.statusCode).toBe(200);
    const events = sseEvents(response.payload);
    const shown = deltasOf(events).join('');
    expect(shown.startsWith('Think about spread first.')).toBe(true);
    expect(normaliseForMatch(shown)).not.toContain('standard error');
    expect(response.payload).not.toMatch(/\bstan/i);
    expect(events.at(-1)).toMatchObject({ type: 'withheld', message: LlmMessages.answerWithheld });
    expect(events.some((e) => e.type === 'done')).toBe(false);

    // The grader's transcript records the event and which question's key it was; the text is what was shown.
    const graded = await app.inject({
      method: 'GET',
      url: `/api/llm/attempts/${attemptId}/transcript`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    const reply = graded.json().messages.at(-1);
    expect(reply).toMatchObject({ role: 'assistant', isWithheld: true, withheldQuestionIndex: 1, content: shown });
    const withheldEvent = events.at(-1);
    expect(withheldEvent?.type === 'withheld' && withheldEvent.messageId).toBe(reply.id);

    // A reload of the candidate's panel does not bring the key back either.
    const own = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    expect(normaliseForMatch(JSON.stringify(own.json()))).not.toContain('standard error');

    // results-service's insights read the flag from the internal transcripts.
    const internal = await app.inject({
      method: 'GET',
      url: `/internal/exams/${exam.id}/transcripts`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    const messages = internal.json().transcripts[0].messages as Array<{ isWithheld?: boolean }>;
    expect(messages.filter((m) => m.isWithheld)).toHaveLength(1);

    // The attempt's timeline reads the stop from the attempt's own transcript.
    const forTimeline = await app.inject({
      method: 'GET',
      url: `/internal/attempts/${attemptId}/transcript`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    expect(forTimeline.json().messages.at(-1)).toMatchObject({ id: reply.id, isWithheld: true, content: shown });
  });

  it('stops a reply naming the correct option text of a multiple-choice question', async () => {
    replyWith(['Outliers pull some measures more than others; you want the ', 'MEDIAN', ' here.']);
    const { headers } = startAttempt(app, guardedExam());
    const events = sseEvents((await chat(headers, 'Q1?')).payload);
    expect(deltasOf(events).join('').toLowerCase()).not.toContain('median');
    expect(events.at(-1)?.type).toBe('withheld');
  });

  it('stops a key spelled out over two replies of the conversation, in homoglyphs and zero-width splits', async () => {
    const exam = guardedExam();
    const { attemptId, headers } = startAttempt(app, exam);
    replyWith(['Fine, the first letters: S-T-A-N-', 'D-A-R-D. Ask again for the rest.']);
    const first = sseEvents((await chat(headers, 'Spell the first word of Q2')).payload);
    expect(first.at(-1)?.type).toBe('done');
    // Cyrillic "е" and "о", and a zero-width space, in the rest of the key.
    replyWith(['The rest: \u0415-R-R-', '\u041E\u200B-R.']);
    const second = sseEvents((await chat(headers, 'Now the second word')).payload);
    expect(second.at(-1)?.type).toBe('withheld');
    expect(deltasOf(second).join('')).toBe('The rest');
    const graded = await app.inject({
      method: 'GET',
      url: `/api/llm/attempts/${attemptId}/transcript`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(graded.statusCode).toBe(200);
    expect(graded.json().messages.at(-1)).toMatchObject({ isWithheld: true, withheldQuestionIndex: 1 });
  });

  it("stops a reply naming the correct option's letter for the question asked about", async () => {
    replyWith(['Between the three, the answer is ', 'B', '.']);
    const { headers } = startAttempt(app, guardedExam());
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/chat',
      headers,
      payload: { message: 'Which letter for Q1?', questionIndex: 0 },
    });
    const events = sseEvents(response.payload);
    expect(deltasOf(events).join('')).toBe('Between the three, the');
    expect(events.at(-1)).toMatchObject({ type: 'withheld', message: LlmMessages.answerWithheld });
  });

  it('lets a reply through whole when it only uses common words or parts of a key', async () => {
    const text = [
      'The medians you computed are a standard step; an error in the mean is ',
      'common. Check the range of values.',
    ];
    replyWith(text);
    const { headers } = startAttempt(app, guardedExam());
    const events = sseEvents((await chat(headers, 'Hint please')).payload);
    expect(deltasOf(events).join('')).toBe(text.join(''));
    expect(events.at(-1)?.type).toBe('done');
  });

  it('does not check replies when the creator turned "stop solutions" off', async () => {
    replyWith(LEAKING_REPLY);
    const { headers } = startAttempt(app, guardedExam(false));
    const events = sseEvents((await chat(headers, 'Answer?')).payload);
    expect(deltasOf(events).join('')).toBe(LEAKING_REPLY.join(''));
    expect(events.at(-1)?.type).toBe('done');
  });

  it("stops the creator's Test Assistant the same way, storing nothing", async () => {
    replyWith(LEAKING_REPLY);
    const exam = guardedExam();
    app.platform.exams.set(exam.id, exam);
    const response = await app.inject({
      method: 'POST',
      url: '/api/llm/test-chat',
      headers: creatorHeaders(app, exam.ownerId),
      payload: { examId: exam.id, messages: [{ role: 'user', content: 'Answer Q2' }] },
    });
    const events = sseEvents(response.payload);
    expect(normaliseForMatch(deltasOf(events).join(''))).not.toContain('standard error');
    expect(events.at(-1)).toMatchObject({ type: 'withheld', messageId: null });
  });
});
