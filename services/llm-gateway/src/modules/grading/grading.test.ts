import type { AiProvider } from '@exam/domain/ai-catalogue';
import { DEFAULT_AI_BUDGET } from '@exam/domain/exam-ai';
import {
  InternalSuggestReplySchema,
  SuggestionAvailabilitySchema,
  SuggestionMessages,
  type InternalSuggestRequest,
  type SuggestionSample,
} from '@exam/domain/question-grading';
import { QuestionSchema } from '@exam/domain/question';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { HttpResponse } from 'msw';
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
import { buildAnswerMessage, buildGradingSystemPrompt } from './grading-prompt.ts';
import { SAMPLE_MAX_TOKENS, SAMPLE_TEMPERATURE } from './suggest-marks.ts';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const INTERNAL = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
const KEY = 'sk-grading-canary-5e1f0a9b7c3d';

const RUBRIC = {
  id: 'r1',
  title: 'Explanation',
  criteria: [
    { id: 'c-def', description: 'States what a p-value is', points: 2 },
    { id: 'c-null', description: 'Mentions the null hypothesis', points: 1 },
  ],
};
const QUESTION: InternalSuggestRequest['question'] = {
  title: 'What is a p-value?',
  content: 'Explain in your own words what a p-value measures.',
  type: 'short-answer',
  maxPoints: 3,
  rubric: RUBRIC,
};
const ANSWER = 'The probability of data at least this extreme if the null hypothesis were true.';

const sample = (points: number): SuggestionSample => ({
  points,
  rubric: [
    { criterionId: 'c-def', points: Math.min(2, points) },
    { criterionId: 'c-null', points: Math.max(0, points - 2) },
  ],
  rationale: 'The answer defines the p-value correctly and names the null hypothesis.',
  quote: 'if the null hypothesis were true',
});

type ProviderCase = {
  provider: AiProvider;
  model: string;
  endpoint: string;
  baseUrl?: string;
  /** The provider's stream of one structured reply, in its own wire format. */
  reply: (value: unknown) => Response;
  usagePerCall: { inputTokens: number; outputTokens: number };
  error: (status: number) => Response;
  /** Checks the request asks for structured output the provider's own way, and returns the schema sent. */
  structured: (body: Body) => Body;
  temperature: (body: Body) => number;
  maxTokens: (body: Body) => number;
};

const openAiShape = {
  reply: (value: unknown) => sseResponse(openAiFrames(jsonPieces(value))),
  usagePerCall: { inputTokens: 120, outputTokens: 30 },
  error: errorBodies.openai,
  structured: (body: Body) => {
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'grading_suggestion', strict: true },
    });
    expect(body.tools).toBeUndefined();
    return body.response_format.json_schema.schema;
  },
  temperature: (b: Body) => b.temperature,
  maxTokens: (b: Body) => b.max_tokens,
};

const cases: ProviderCase[] = [
  { provider: 'openai', model: 'gpt-4o-mini', endpoint: `${TEST_ENDPOINTS.openai}/chat/completions`, ...openAiShape },
  {
    provider: 'groq',
    model: 'llama-3.3-70b-versatile',
    endpoint: `${TEST_ENDPOINTS.groq}/chat/completions`,
    ...openAiShape,
  },
  {
    provider: 'openai-compatible',
    model: 'qwen2.5:7b-instruct',
    endpoint: `${TEST_ENDPOINTS.compatible}/chat/completions`,
    baseUrl: TEST_ENDPOINTS.compatible,
    ...openAiShape,
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4',
    endpoint: `${TEST_ENDPOINTS.anthropic}/v1/messages`,
    reply: (value) => sseResponse(anthropicToolFrames('grading_suggestion', jsonPieces(value))),
    usagePerCall: { inputTokens: 200, outputTokens: 40 },
    error: errorBodies.anthropic,
    structured: (body) => {
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'grading_suggestion' });
      expect(body.tools).toHaveLength(1);
      expect(body.tools[0]).toMatchObject({ name: 'grading_suggestion', description: expect.any(String) });
      return body.tools[0].input_schema;
    },
    temperature: (b) => b.temperature,
    maxTokens: (b) => b.max_tokens,
  },
  {
    provider: 'google',
    model: 'gemini-1.5-flash',
    endpoint: `${TEST_ENDPOINTS.google}/v1beta/models/gemini-1.5-flash:streamGenerateContent`,
    reply: (value) => sseResponse(geminiFrames(jsonPieces(value))),
    usagePerCall: { inputTokens: 150, outputTokens: 25 },
    error: errorBodies.google,
    structured: (body) => {
      expect(body.generationConfig.responseMimeType).toBe('application/json');
      return body.generationConfig.responseSchema;
    },
    temperature: (b) => b.generationConfig.temperature,
    maxTokens: (b) => b.generationConfig.maxOutputTokens,
  },
];

const server = setupServer();
let app: TestApp;
const calls: RecordedCall[] = [];

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  app = await buildTestApp({ env: { UPSTREAM_FIRST_TOKEN_TIMEOUT_MS: '400' } });
});
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(async () => {
  await app.close();
  server.close();
});

function examOf(c: Pick<ProviderCase, 'provider' | 'model' | 'baseUrl'>, opts: { gradingTokens?: number } = {}) {
  const exam = makeExam({
    provider: c.provider,
    model: c.model,
    apiKey: KEY,
    // Suggestions work while the candidates' assistant is off.
    ai: {
      enabled: false,
      baseUrl: c.baseUrl ?? '',
      budget: { ...DEFAULT_AI_BUDGET, gradingTokens: opts.gradingTokens ?? DEFAULT_AI_BUDGET.gradingTokens },
    },
  });
  app.platform.exams.set(exam.id, exam);
  return exam;
}

const suggest = (
  examId: string,
  body: Partial<InternalSuggestRequest> = {},
  headers: Record<string, string> = INTERNAL,
) =>
  app.inject({
    method: 'POST',
    url: `/internal/exams/${examId}/grading-suggestions`,
    headers,
    payload: { question: QUESTION, answer: ANSWER, samples: 3, ...body },
  });
const usageOf = async (examId: string) =>
  SuggestionAvailabilitySchema.parse(
    (await app.inject({ method: 'GET', url: `/internal/exams/${examId}/grading-usage`, headers: INTERNAL })).json(),
  );

/** Answers the provider's calls in turn with `replies` (the last one repeats). */
function answerWith(c: ProviderCase, replies: Array<(c: ProviderCase) => Response>) {
  let n = 0;
  server.use(recordingHandler(c.endpoint, calls, () => replies[Math.min(n++, replies.length - 1)]!(c)));
}

describe.each(cases)('suggestions on the $provider provider', (c) => {
  it('asks for structured output its own way and returns every sample, validated, with the usage', async () => {
    const exam = examOf(c);
    answerWith(c, [(p) => p.reply(sample(3)), (p) => p.reply(sample(2)), (p) => p.reply(sample(3))]);
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(200);
    const reply = InternalSuggestReplySchema.parse(response.json());
    expect(reply.samples.map((s) => s.points).sort()).toEqual([2, 3, 3]);
    expect(reply.samples).toContainEqual(sample(2));
    expect(reply).toMatchObject({ provider: c.provider, model: c.model });
    expect(reply.usage).toEqual({
      inputTokens: 3 * c.usagePerCall.inputTokens,
      outputTokens: 3 * c.usagePerCall.outputTokens,
    });
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      const schema = c.structured(call.body);
      expect(Object.keys(schema.properties)).toEqual(['points', 'rubric', 'rationale', 'quote']);
      expect(c.temperature(call.body)).toBe(SAMPLE_TEMPERATURE);
      expect(c.maxTokens(call.body)).toBe(SAMPLE_MAX_TOKENS);
      expect(JSON.stringify(schema)).not.toContain('$schema');
    }
    const first = calls[0]!.body as Body;
    if (c.provider === 'google') {
      const schema = first.generationConfig.responseSchema;
      expect(schema).toMatchObject({ type: 'OBJECT', propertyOrdering: ['points', 'rubric', 'rationale', 'quote'] });
      expect(schema.properties.rubric.items.type).toBe('OBJECT');
      expect(JSON.stringify(schema)).not.toContain('additionalProperties');
    } else if (c.provider === 'anthropic') {
      expect(first.tools[0].input_schema).toMatchObject({ type: 'object', additionalProperties: false });
    } else {
      const schema = first.response_format.json_schema.schema;
      expect(schema).toMatchObject({
        additionalProperties: false,
        required: ['points', 'rubric', 'rationale', 'quote'],
      });
      expect(schema.properties.rubric.items).toMatchObject({
        additionalProperties: false,
        required: ['criterionId', 'points'],
      });
      // Strict mode refuses keywords it does not support (a string's maxLength); the zod validation keeps them.
      expect(JSON.stringify(schema)).not.toContain('maxLength');
    }
    expect((await usageOf(exam.id)).usedTokens).toBe(3 * (c.usagePerCall.inputTokens + c.usagePerCall.outputTokens));
  });

  it('drops a sample that does not match the schema and returns the valid ones', async () => {
    const exam = examOf(c);
    answerWith(c, [(p) => p.reply({ ...sample(3), points: -4 }), (p) => p.reply(sample(1))]);
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(200);
    expect(InternalSuggestReplySchema.parse(response.json()).samples).toEqual([sample(1), sample(1)]);
  });

  it('answers 502 without the key when the provider fails every call', async () => {
    const exam = examOf(c);
    answerWith(c, [(p) => p.error(500)]);
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toContain('The AI provider failed');
    expect(response.body).not.toContain(KEY);
    expect((await usageOf(exam.id)).usedTokens).toBe(0);
  });
});

describe('grading suggestions', () => {
  const openai = cases[0]!;

  it('sends the provider only the question and the answer the route received, under the grader prompt', async () => {
    const exam = makeExam({
      apiKey: KEY,
      questions: [
        QuestionSchema.parse({
          id: 'q1',
          type: 'short-answer',
          title: 'EXAM-QUESTION-CANARY',
          acceptedAnswers: ['ANSWER-KEY-CANARY'],
        }),
      ],
      materialTexts: [{ name: 'notes.pdf', text: 'MATERIAL-CANARY' }],
      ai: { customPrompt: 'CUSTOM-PROMPT-CANARY', startMessage: 'START-CANARY' },
    });
    app.platform.exams.set(exam.id, exam);
    answerWith(openai, [(p) => p.reply(sample(2))]);
    expect((await suggest(exam.id, { samples: 1 })).statusCode).toBe(200);
    const body = calls[0]!.body as Body;
    expect(Object.keys(body).sort()).toEqual(
      ['max_tokens', 'messages', 'model', 'response_format', 'stream', 'stream_options', 'temperature'].sort(),
    );
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0]).toEqual({ role: 'system', content: buildGradingSystemPrompt(QUESTION) });
    const nonce = /<answer-([0-9a-f]+)>/.exec(body.messages[1].content)?.[1];
    expect(body.messages[1]).toEqual(buildAnswerMessage(ANSWER, nonce));
    const sent = JSON.stringify(body);
    for (const other of [
      exam.id,
      exam.ownerId,
      exam.title,
      'EXAM-QUESTION-CANARY',
      'ANSWER-KEY-CANARY',
      'MATERIAL-CANARY',
      'CUSTOM-PROMPT-CANARY',
      'START-CANARY',
      KEY,
    ])
      expect(sent).not.toContain(other);
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([1, 5])('makes %i provider calls for %i samples', async (samples) => {
    const exam = examOf(openai);
    answerWith(openai, [(p) => p.reply(sample(2))]);
    const response = await suggest(exam.id, { samples });
    expect(response.statusCode).toBe(200);
    expect(calls).toHaveLength(samples);
    expect(InternalSuggestReplySchema.parse(response.json()).samples).toHaveLength(samples);
  });

  it('adds each suggestion to the grading usage and refuses with 429 once the budget is spent', async () => {
    const perCall = openai.usagePerCall.inputTokens + openai.usagePerCall.outputTokens;
    const exam = examOf(openai, { gradingTokens: 4 * perCall });
    answerWith(openai, [(p) => p.reply(sample(2))]);
    expect((await suggest(exam.id, { samples: 3 })).statusCode).toBe(200);
    expect(await usageOf(exam.id)).toMatchObject({ available: true, usedTokens: 3 * perCall });
    // Not yet spent: the second call runs and passes the budget by its own cost.
    expect((await suggest(exam.id, { samples: 3 })).statusCode).toBe(200);
    expect(await usageOf(exam.id)).toEqual({
      available: false,
      reason: SuggestionMessages.budgetExhausted,
      provider: 'openai',
      model: 'gpt-4o-mini',
      budgetTokens: 4 * perCall,
      usedTokens: 6 * perCall,
    });
    const refused = await suggest(exam.id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(SuggestionMessages.budgetExhausted);
    expect(calls).toHaveLength(6);
  });

  it('counts every one of many suggestions finishing at once', async () => {
    const exam = examOf(openai);
    answerWith(openai, [(p) => p.reply(sample(2))]);
    const responses = await Promise.all(Array.from({ length: 6 }, () => suggest(exam.id, { samples: 2 })));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    const perCall = openai.usagePerCall.inputTokens + openai.usagePerCall.outputTokens;
    expect((await usageOf(exam.id)).usedTokens).toBe(12 * perCall);
  });

  it('refuses with 409 and says so when the exam has no usable provider key', async () => {
    const exam = makeExam({ apiKey: null });
    app.platform.exams.set(exam.id, exam);
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(SuggestionMessages.noProvider);
    expect(await usageOf(exam.id)).toEqual({
      available: false,
      reason: SuggestionMessages.noProvider,
      provider: null,
      model: null,
      budgetTokens: DEFAULT_AI_BUDGET.gradingTokens,
      usedTokens: 0,
    });
    expect(calls).toHaveLength(0);
  });

  it('refuses with 409 a self-hosted provider without its base URL', async () => {
    const exam = examOf({ provider: 'openai-compatible', model: 'llama3.1:8b' });
    expect((await suggest(exam.id)).statusCode).toBe(409);
  });

  it('answers 502 with a clear message when no sample is valid, and still counts what they spent', async () => {
    const exam = examOf(openai);
    server.use(recordingHandler(openai.endpoint, calls, () => sseResponse(openAiFrames(['{"points": 2, "rub']))));
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toMatch(/none of its 3 replies was a valid suggestion/);
    expect((await usageOf(exam.id)).usedTokens).toBe(
      3 * (openai.usagePerCall.inputTokens + openai.usagePerCall.outputTokens),
    );
  });

  it('returns the samples that came back when some calls fail', async () => {
    const exam = examOf(openai);
    answerWith(openai, [(p) => p.error(500), (p) => p.reply(sample(1))]);
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(200);
    expect(InternalSuggestReplySchema.parse(response.json()).samples).toEqual([sample(1), sample(1)]);
  });

  it('redacts the key from the 502 when the provider echoes it', async () => {
    const exam = examOf(openai);
    server.use(
      recordingHandler(openai.endpoint, calls, () =>
        HttpResponse.json({ error: { message: `Incorrect API key provided: ${KEY}` } }, { status: 401 }),
      ),
    );
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(502);
    expect(response.body).not.toContain(KEY);
    expect(response.json().error.message).toContain('[redacted]');
  });

  it('answers 502 when the provider sends no first token in time', async () => {
    const exam = examOf(openai);
    server.use(
      recordingHandler(openai.endpoint, calls, () =>
        sseResponse(openAiFrames(jsonPieces(sample(1))), { firstDelayMs: 3000 }),
      ),
    );
    const started = Date.now();
    const response = await suggest(exam.id, { samples: 2 });
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('answers 404 for an exam exam-service does not know, and 401 without the internal token', async () => {
    expect((await suggest('no-such-exam')).statusCode).toBe(404);
    const exam = examOf(openai);
    for (const headers of [{}, { 'x-internal-token': 'wrong' }] as Record<string, string>[]) {
      expect((await suggest(exam.id, {}, headers)).statusCode).toBe(401);
      const usage = await app.inject({ method: 'GET', url: `/internal/exams/${exam.id}/grading-usage`, headers });
      expect(usage.statusCode).toBe(401);
    }
    expect(calls).toHaveLength(0);
  });

  it('refuses a bad body with 400 naming the field, and calls no provider', async () => {
    const exam = examOf(openai);
    const response = await suggest(exam.id, { samples: 9 });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('samples');
    expect(calls).toHaveLength(0);
    expect((await usageOf(exam.id)).usedTokens).toBe(0);
  });
});
