import { DEFAULT_AI_BUDGET } from '@exam/domain/exam-ai';
import {
  FOLLOW_UP_QUESTION_MAX,
  GenerateFollowUpsResponseSchema,
  type GenerateFollowUpsRequest,
} from '@exam/domain/follow-up';
import { SuggestionMessages } from '@exam/domain/question-grading';
import { QuestionSchema } from '@exam/domain/question';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import {
  anthropicToolFrames,
  errorBodies,
  geminiFrames,
  jsonPieces,
  openAiFrames,
  recordingHandler,
  sseResponse,
  type RecordedCall,
} from '../../testing/provider-mocks.ts';
import { FollowUpGatewayMessages } from './generate-follow-ups.ts';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const INTERNAL = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
const KEY = 'sk-follow-up-canary-7d2e9a';
const MCQ_KEY = 'Breadth-first search';
const SHORT_KEY = 'dynamic programming';

const QUESTIONS = [
  QuestionSchema.parse({
    id: 'q-mcq',
    type: 'mcq',
    title: 'Which search finds the shortest path in an unweighted graph?',
    options: ['Depth-first search', MCQ_KEY, 'Binary search'],
    correctAnswer: MCQ_KEY,
  }),
  QuestionSchema.parse({
    id: 'q-short',
    type: 'short-answer',
    title: 'Name the technique that stores the results of subproblems.',
    acceptedAnswers: [SHORT_KEY],
  }),
  QuestionSchema.parse({ id: 'q-code', type: 'coding', title: 'Write fib(n)', language: 'python' }),
];

const ANSWERS: GenerateFollowUpsRequest['answers'] = [
  { questionIndex: 1, title: QUESTIONS[1]!.title, text: '', type: 'short-answer', answer: 'memo tables' },
  {
    questionIndex: 2,
    title: 'Write fib(n)',
    text: 'Return the n-th Fibonacci number.',
    type: 'coding',
    language: 'python',
    answer: 'def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a',
  },
];

const cases = [
  {
    provider: 'openai' as const,
    model: 'gpt-4o-mini',
    endpoint: `${TEST_ENDPOINTS.openai}/chat/completions`,
    reply: (value: unknown) => sseResponse(openAiFrames(jsonPieces(value))),
    usage: 150,
    error: errorBodies.openai,
    structured: (body: Body) => {
      expect(body.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: { name: 'follow_up_questions', strict: true },
      });
      return body.response_format.json_schema.schema;
    },
  },
  {
    provider: 'anthropic' as const,
    model: 'claude-sonnet-4',
    endpoint: `${TEST_ENDPOINTS.anthropic}/v1/messages`,
    reply: (value: unknown) => sseResponse(anthropicToolFrames('follow_up_questions', jsonPieces(value))),
    usage: 240,
    error: errorBodies.anthropic,
    structured: (body: Body) => {
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'follow_up_questions' });
      return body.tools[0].input_schema;
    },
  },
  {
    provider: 'google' as const,
    model: 'gemini-1.5-flash',
    endpoint: `${TEST_ENDPOINTS.google}/v1beta/models/gemini-1.5-flash:streamGenerateContent`,
    reply: (value: unknown) => sseResponse(geminiFrames(jsonPieces(value))),
    usage: 175,
    error: errorBodies.google,
    structured: (body: Body) => {
      expect(body.generationConfig.responseMimeType).toBe('application/json');
      return body.generationConfig.responseSchema;
    },
  },
];
type Case = (typeof cases)[number];

const server = setupServer();
let app: TestApp;
const calls: RecordedCall[] = [];

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

function examOf(c: Pick<Case, 'provider' | 'model'>, opts: { gradingTokens?: number; enabled?: boolean } = {}) {
  const exam = makeExam({
    provider: c.provider,
    model: c.model,
    apiKey: KEY,
    questions: QUESTIONS,
    ai: {
      enabled: opts.enabled ?? true,
      budget: { ...DEFAULT_AI_BUDGET, gradingTokens: opts.gradingTokens ?? DEFAULT_AI_BUDGET.gradingTokens },
    },
  });
  app.platform.exams.set(exam.id, exam);
  return exam;
}

const generate = (
  body: Partial<GenerateFollowUpsRequest> & { examId: string },
  headers: Record<string, string> = INTERNAL,
) =>
  app.inject({
    method: 'POST',
    url: '/internal/attempts/attempt-1/follow-up-questions',
    headers,
    payload: { count: 2, answers: ANSWERS, ...body },
  });

const answerWith = (c: Case, respond: () => Response) =>
  server.use(recordingHandler(c.endpoint, calls, () => respond()));

const usedTokens = async (examId: string) =>
  (await app.inject({ method: 'GET', url: `/internal/exams/${examId}/grading-usage`, headers: INTERNAL })).json()
    .usedTokens as number;

describe.each(cases)('follow-up questions on the $provider provider', (c) => {
  it('asks for structured output its own way and returns the questions with the usage counted', async () => {
    const exam = examOf(c);
    answerWith(c, () =>
      c.reply({
        questions: [
          { questionIndex: 2, text: 'Why do you update a and b in one statement?' },
          { questionIndex: 1, text: 'How would a memo table help with overlapping subproblems in your answer?' },
        ],
      }),
    );
    const response = await generate({ examId: exam.id });
    expect(response.statusCode).toBe(200);
    const reply = GenerateFollowUpsResponseSchema.parse(response.json());
    expect(reply.questions).toEqual([
      { questionIndex: 2, text: 'Why do you update a and b in one statement?' },
      { questionIndex: 1, text: 'How would a memo table help with overlapping subproblems in your answer?' },
    ]);
    expect(reply.usage.inputTokens + reply.usage.outputTokens).toBe(c.usage);
    expect(calls).toHaveLength(1);
    const schema = c.structured(calls[0]!.body);
    expect(JSON.stringify(schema)).toContain('questionIndex');
    expect(await usedTokens(exam.id)).toBe(c.usage);
  });

  it('answers 502 without the key when the provider fails', async () => {
    const exam = examOf(c);
    answerWith(c, () => c.error(500));
    const response = await generate({ examId: exam.id });
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toContain('The AI provider failed');
    expect(response.body).not.toContain(KEY);
  });
});

describe('follow-up questions', () => {
  const openai = cases[0]!;

  it("sends the provider the candidate's answers and statements, never the exam's keys", async () => {
    const exam = examOf(openai);
    answerWith(openai, () => openai.reply({ questions: [{ questionIndex: 2, text: 'What does range(n) do here?' }] }));
    expect((await generate({ examId: exam.id, count: 1 })).statusCode).toBe(200);
    const body = calls[0]!.body as Body;
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toMatch(/Ask exactly 1 question,/);
    expect(body.messages[0].content).toMatch(/Never state, hint at or evaluate/);
    const user = body.messages[1].content as string;
    expect(user).toContain('a, b = b, a + b');
    expect(user).toContain('memo tables');
    const sent = JSON.stringify(body);
    for (const secret of [MCQ_KEY, SHORT_KEY, KEY, exam.ownerId]) expect(sent).not.toContain(secret);
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("drops a question that holds one of the exam's keys, in plain or disguised form, and cuts long ones", async () => {
    const exam = examOf(openai);
    const long = `Walk me through your loop. ${'Explain each step of it in your own words. '.repeat(30)}`;
    answerWith(openai, () =>
      openai.reply({
        questions: [
          { questionIndex: 1, text: 'Is dynamic programming what you meant by memo tables?' },
          { questionIndex: 1, text: 'Did you mean d y n a m i c p r o g r a m m i n g?' },
          { questionIndex: 2, text: 'Why not use breadth\u200b-first search here?' },
          { questionIndex: 7, text: 'A question about an answer that was never sent?' },
          { questionIndex: 2, text: long },
          { questionIndex: 2, text: 'What would fib(0) return with your code?' },
        ],
      }),
    );
    const response = await generate({ examId: exam.id, count: 3 });
    expect(response.statusCode).toBe(200);
    const { questions } = GenerateFollowUpsResponseSchema.parse(response.json());
    expect(questions).toHaveLength(2);
    expect(questions[0]!.text.length).toBeLessThanOrEqual(FOLLOW_UP_QUESTION_MAX);
    expect(questions[0]!.text.startsWith('Walk me through your loop.')).toBe(true);
    expect(questions[0]!.text.endsWith('…')).toBe(true);
    expect(questions[1]).toEqual({ questionIndex: 2, text: 'What would fib(0) return with your code?' });
    expect(response.body.toLowerCase()).not.toContain('dynamic');
    expect(response.body.toLowerCase()).not.toContain('breadth');
  });

  it('answers 502 when every question leaked, and when the reply is not the schema', async () => {
    const exam = examOf(openai);
    answerWith(openai, () => openai.reply({ questions: [{ questionIndex: 1, text: 'Is it dynamic programming?' }] }));
    const leaked = await generate({ examId: exam.id });
    expect(leaked.statusCode).toBe(502);
    expect(leaked.json().error.message).toBe(FollowUpGatewayMessages.noneUsable);
    server.resetHandlers();
    answerWith(openai, () => sseResponse(openAiFrames(['{"questions": [{"questionIn'])));
    const invalid = await generate({ examId: exam.id });
    expect(invalid.statusCode).toBe(502);
    expect(invalid.json().error.message).toBe(FollowUpGatewayMessages.invalid);
  });

  it('counts against the grading budget and refuses with 429 once it is spent', async () => {
    const exam = examOf(openai, { gradingTokens: openai.usage });
    answerWith(openai, () => openai.reply({ questions: [{ questionIndex: 2, text: 'What does range(n) do here?' }] }));
    expect((await generate({ examId: exam.id })).statusCode).toBe(200);
    const refused = await generate({ examId: exam.id });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(SuggestionMessages.budgetExhausted);
    expect(calls).toHaveLength(1);
  });

  it('refuses with 409 when the assistant is off or the exam has no usable key', async () => {
    const off = examOf(openai, { enabled: false });
    const refused = await generate({ examId: off.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(FollowUpGatewayMessages.assistantOff);
    const keyless = makeExam({ apiKey: null });
    app.platform.exams.set(keyless.id, keyless);
    const noKey = await generate({ examId: keyless.id });
    expect(noKey.statusCode).toBe(409);
    expect(noKey.json().error.message).toBe(SuggestionMessages.noProvider);
    expect(calls).toHaveLength(0);
  });

  it('answers 401 without the internal token, 404 for an unknown exam and 400 for a bad request', async () => {
    const exam = examOf(openai);
    expect((await generate({ examId: exam.id }, { 'x-internal-token': 'wrong' })).statusCode).toBe(401);
    expect((await generate({ examId: 'no-such-exam' })).statusCode).toBe(404);
    const bad = await generate({ examId: exam.id, count: 9 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('count');
    expect(calls).toHaveLength(0);
  });
});
