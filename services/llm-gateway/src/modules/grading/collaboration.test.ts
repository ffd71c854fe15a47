import type { AiProvider } from '@exam/domain/ai-catalogue';
import {
  COLLABORATION_SCALES,
  CollaborationSuggestionReplySchema,
  type CollaborationSuggestionRequest,
} from '@exam/domain/collaboration';
import { DEFAULT_AI_BUDGET } from '@exam/domain/exam-ai';
import { SuggestionAvailabilitySchema, SuggestionMessages } from '@exam/domain/question-grading';
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
import { buildConversationMessage } from './collaboration-prompt.ts';
import { quotesFromMessages } from './collaboration-format.ts';
import { COLLABORATION_MAX_TOKENS, COLLABORATION_TEMPERATURE } from './suggest-collaboration.ts';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const INTERNAL = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
const KEY = 'sk-collab-canary-7d2e9f41';

const REQUEST: CollaborationSuggestionRequest = {
  questions: [{ index: 0, title: 'Sorting', content: 'Sort a list of integers without the built-in sort.' }],
  messages: [
    { id: 'm1', role: 'user', content: 'What is the idea behind merge sort?', questionIndex: 0 },
    { id: 'm2', role: 'assistant', content: 'Split the list, sort the halves, merge them.', questionIndex: 0 },
    { id: 'm3', role: 'user', content: 'That is wrong for an odd length,\nisn’t it?', questionIndex: 0 },
  ],
  figures: { messagesSent: 2, askingShare: 1, testedShare: null },
};

const output = {
  framing: {
    level: 3,
    rationale: 'Asks about the idea rather than for the code.',
    // The first is the candidate's; the second the assistant's words; the third invented.
    quotes: ['What is the idea behind merge sort?', 'sort the halves', 'Please write it all for me'],
  },
  verification: {
    level: 4,
    rationale: 'Questions the reply.',
    // Re-wrapped across the candidate's line break: still their words.
    quotes: ['That is wrong for an odd length, isn’t it?'],
  },
};

type ProviderCase = {
  provider: AiProvider;
  model: string;
  endpoint: string;
  reply: (value: unknown) => Response;
  usage: { inputTokens: number; outputTokens: number };
  error: (status: number) => Response;
  structured: (body: Body) => Body;
  settings: (body: Body) => { temperature: number; maxTokens: number };
};

const cases: ProviderCase[] = [
  {
    provider: 'openai',
    model: 'gpt-4o-mini',
    endpoint: `${TEST_ENDPOINTS.openai}/chat/completions`,
    reply: (value) => sseResponse(openAiFrames(jsonPieces(value))),
    usage: { inputTokens: 120, outputTokens: 30 },
    error: errorBodies.openai,
    structured: (body) => {
      expect(body.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: { name: 'collaboration_suggestion', strict: true },
      });
      const schema = body.response_format.json_schema.schema;
      expect(schema).toMatchObject({ additionalProperties: false, required: ['framing', 'verification'] });
      expect(schema.properties.framing).toMatchObject({
        additionalProperties: false,
        required: ['level', 'rationale', 'quotes'],
      });
      return schema;
    },
    settings: (b) => ({ temperature: b.temperature, maxTokens: b.max_tokens }),
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4',
    endpoint: `${TEST_ENDPOINTS.anthropic}/v1/messages`,
    reply: (value) => sseResponse(anthropicToolFrames('collaboration_suggestion', jsonPieces(value))),
    usage: { inputTokens: 200, outputTokens: 40 },
    error: errorBodies.anthropic,
    structured: (body) => {
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'collaboration_suggestion' });
      expect(body.tools).toHaveLength(1);
      return body.tools[0].input_schema;
    },
    settings: (b) => ({ temperature: b.temperature, maxTokens: b.max_tokens }),
  },
  {
    provider: 'google',
    model: 'gemini-1.5-flash',
    endpoint: `${TEST_ENDPOINTS.google}/v1beta/models/gemini-1.5-flash:streamGenerateContent`,
    reply: (value) => sseResponse(geminiFrames(jsonPieces(value))),
    usage: { inputTokens: 150, outputTokens: 25 },
    error: errorBodies.google,
    structured: (body) => {
      expect(body.generationConfig.responseMimeType).toBe('application/json');
      const schema = body.generationConfig.responseSchema;
      expect(schema).toMatchObject({ type: 'OBJECT', propertyOrdering: ['framing', 'verification'] });
      expect(JSON.stringify(schema)).not.toContain('additionalProperties');
      return schema;
    },
    settings: (b) => ({ temperature: b.generationConfig.temperature, maxTokens: b.generationConfig.maxOutputTokens }),
  },
];

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

function examOf(c: Pick<ProviderCase, 'provider' | 'model'>, gradingTokens = DEFAULT_AI_BUDGET.gradingTokens) {
  const exam = makeExam({
    provider: c.provider,
    model: c.model,
    apiKey: KEY,
    ai: { enabled: false, budget: { ...DEFAULT_AI_BUDGET, gradingTokens } },
  });
  app.platform.exams.set(exam.id, exam);
  return exam;
}

const suggest = (examId: string, body: unknown = REQUEST, headers: Record<string, string> = INTERNAL) =>
  app.inject({
    method: 'POST',
    url: `/internal/exams/${examId}/collaboration-suggestions`,
    headers,
    payload: body as object,
  });
const usedTokens = async (examId: string) =>
  SuggestionAvailabilitySchema.parse(
    (await app.inject({ method: 'GET', url: `/internal/exams/${examId}/grading-usage`, headers: INTERNAL })).json(),
  ).usedTokens;

describe.each(cases)('collaboration suggestions on the $provider provider', (c) => {
  it('asks for the structured reply its own way, keeps only the candidate’s own quotes and counts the spend', async () => {
    const exam = examOf(c);
    server.use(recordingHandler(c.endpoint, calls, () => c.reply(output)));
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(200);
    const reply = CollaborationSuggestionReplySchema.parse(response.json());
    expect(reply).toEqual({
      framing: { ...output.framing, quotes: ['What is the idea behind merge sort?'] },
      verification: output.verification,
      provider: c.provider,
      model: c.model,
      usage: c.usage,
    });
    expect(calls).toHaveLength(1);
    const body = calls[0]!.body as Body;
    const schema = c.structured(body);
    expect(JSON.stringify(schema)).not.toContain('$schema');
    expect(c.settings(body)).toEqual({ temperature: COLLABORATION_TEMPERATURE, maxTokens: COLLABORATION_MAX_TOKENS });
    expect(await usedTokens(exam.id)).toBe(c.usage.inputTokens + c.usage.outputTokens);
  });

  it('answers 502 without the key when the provider fails', async () => {
    const exam = examOf(c);
    server.use(recordingHandler(c.endpoint, calls, () => c.error(500)));
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toContain('The AI provider failed');
    expect(response.body).not.toContain(KEY);
  });
});

describe('collaboration suggestions', () => {
  const openai = cases[0]!;

  it('sends the scales of both judged dimensions and the conversation between nonce markers, nothing more', async () => {
    const exam = examOf(openai);
    server.use(recordingHandler(openai.endpoint, calls, () => openai.reply(output)));
    expect((await suggest(exam.id)).statusCode).toBe(200);
    const [system, user] = (calls[0]!.body as Body).messages;
    for (const text of [...COLLABORATION_SCALES.framing, ...COLLABORATION_SCALES.verification])
      expect(system.content).toContain(text);
    expect(system.content).not.toContain(COLLABORATION_SCALES.integration[0]);
    expect(system.content).toContain('- testedShare: null');
    const nonce = /<conversation-([0-9a-f]+)>/.exec(user.content)?.[1];
    expect(user).toEqual(buildConversationMessage(REQUEST, nonce));
    expect(user.content).toContain('[user, question 1]\nWhat is the idea behind merge sort?');
    expect(JSON.stringify(calls[0]!.body)).not.toContain(exam.id);
  });

  it('refuses with 409 without a usable provider key, calling nothing', async () => {
    const exam = makeExam({ apiKey: null });
    app.platform.exams.set(exam.id, exam);
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(SuggestionMessages.noProvider);
    expect(calls).toHaveLength(0);
  });

  it('refuses with 429 once the exam’s grading budget is spent, suggested marks and profiles alike', async () => {
    const perCall = openai.usage.inputTokens + openai.usage.outputTokens;
    const exam = examOf(openai, perCall);
    server.use(recordingHandler(openai.endpoint, calls, () => openai.reply(output)));
    expect((await suggest(exam.id)).statusCode).toBe(200);
    const refused = await suggest(exam.id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(SuggestionMessages.budgetExhausted);
    expect(calls).toHaveLength(1);
  });

  it('answers 502 for a reply outside the schema (a level of 7) and still counts what it spent', async () => {
    const exam = examOf(openai);
    server.use(
      recordingHandler(openai.endpoint, calls, () =>
        openai.reply({ ...output, framing: { ...output.framing, level: 7 } }),
      ),
    );
    const response = await suggest(exam.id);
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toMatch(/not a valid collaboration suggestion/);
    expect(await usedTokens(exam.id)).toBe(openai.usage.inputTokens + openai.usage.outputTokens);
  });

  it('answers 404 for an unknown exam, 401 without the internal token and 400 for a bad body', async () => {
    expect((await suggest('no-such-exam')).statusCode).toBe(404);
    const exam = examOf(openai);
    expect((await suggest(exam.id, REQUEST, {})).statusCode).toBe(401);
    const bad = await suggest(exam.id, {
      ...REQUEST,
      messages: [{ id: 'x', role: 'system', content: '', questionIndex: null }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('messages');
    expect(calls).toHaveLength(0);
  });

  it('keeps a quote once, whitespace-insensitively, and only from the candidate’s messages', () => {
    expect(quotesFromMessages(['  a  b ', 'a b', 'c', ''], ['x a\nb y'])).toEqual(['a  b']);
  });
});
