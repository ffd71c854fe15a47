import type { AiProvider } from '@exam/domain/ai-catalogue';
import { QuestionSchema } from '@exam/domain/question';
import { LlmMessages } from '@exam/domain/llm';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PromptText } from './prompt.ts';
import { buildTestApp, startAttempt, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';
import {
  anthropicFrames,
  errorBodies,
  geminiFrames,
  openAiFrames,
  recordingHandler,
  sseResponse,
  type RecordedCall,
} from '../../testing/provider-mocks.ts';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

type ProviderCase = {
  provider: AiProvider;
  model: string;
  endpoint: string;
  frames: (texts: string[]) => string[];
  error: (status: number) => Response;
  usage: { inputTokens: number; outputTokens: number };
  hasAuth: (headers: Record<string, string>, key: string) => boolean;
  system: (body: Body) => string;
  temperature: (body: Body) => number;
  maxTokens: (body: Body) => number;
  lastUserText: (body: Body) => string;
  baseUrl?: string;
};

const openAiShape = {
  frames: (texts: string[]) => openAiFrames(texts),
  error: errorBodies.openai,
  usage: { inputTokens: 120, outputTokens: 30 },
  hasAuth: (h: Record<string, string>, key: string) => h.authorization === `Bearer ${key}`,
  system: (b: Body) => (b.messages[0].role === 'system' ? b.messages[0].content : ''),
  temperature: (b: Body) => b.temperature,
  maxTokens: (b: Body) => b.max_tokens,
  lastUserText: (b: Body) => b.messages.at(-1).content,
};

const cases: ProviderCase[] = [
  { provider: 'openai', model: 'gpt-4o', endpoint: `${TEST_ENDPOINTS.openai}/chat/completions`, ...openAiShape },
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
    frames: (texts) => anthropicFrames(texts),
    error: errorBodies.anthropic,
    usage: { inputTokens: 200, outputTokens: 40 },
    hasAuth: (h, key) => h['x-api-key'] === key && h['anthropic-version'] === '2023-06-01' && !h.authorization,
    system: (b) => b.system,
    temperature: (b) => b.temperature,
    maxTokens: (b) => b.max_tokens,
    lastUserText: (b) => b.messages.at(-1).content,
  },
  {
    provider: 'google',
    model: 'gemini-1.5-flash',
    endpoint: `${TEST_ENDPOINTS.google}/v1beta/models/gemini-1.5-flash:streamGenerateContent`,
    frames: (texts) => geminiFrames(texts),
    error: errorBodies.google,
    usage: { inputTokens: 150, outputTokens: 25 },
    hasAuth: (h, key) => h['x-goog-api-key'] === key && !h.authorization,
    system: (b) => b.systemInstruction.parts[0].text,
    temperature: (b) => b.generationConfig.temperature,
    maxTokens: (b) => b.generationConfig.maxOutputTokens,
    lastUserText: (b) => b.contents.at(-1).parts[0].text,
  },
];

const CANARY_KEY = 'sk-canary-7f3a9c1e5b2d4f6a8c0e';
const server = setupServer();
const questions = [
  QuestionSchema.parse({
    id: 'q1',
    type: 'mcq',
    title: 'Which is a measure of spread?',
    options: ['Mean', 'Variance', 'Mode'],
    correctAnswer: 'Variance',
  }),
  QuestionSchema.parse({
    id: 'q2',
    type: 'short-answer',
    title: 'Name the distribution of sample means',
    acceptedAnswers: ['CANARY-ANSWER-NORMAL-4242'],
  }),
  QuestionSchema.parse({
    id: 'q3',
    type: 'coding',
    title: 'Compute the median',
    language: 'python',
    correctAnswer: 'CANARY-CODE-ANSWER-9191',
  }),
];

function examFor(c: ProviderCase, apiKey: string | null = CANARY_KEY) {
  return makeExam({
    provider: c.provider,
    model: c.model,
    apiKey,
    questions,
    materialTexts: [{ name: 'week3.pdf', text: 'MATERIAL-SENTINEL: the standard error is sigma over root n.' }],
    ai: {
      courseAssistanceEnabled: true,
      courseAssistanceLevel: 8,
      stopSolutions: true,
      processCode: false,
      customPrompt: 'GUARDRAIL-SENTINEL: never write code.',
      baseUrl: c.baseUrl ?? '',
    },
  });
}

describe.each(cases)('$provider provider', (c) => {
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
  const chat = (headers: Record<string, string>, message: string) =>
    app.inject({ method: 'POST', url: '/api/llm/chat', headers, payload: { message, questionIndex: 1 } });

  it('sends the endpoint, key, model, temperature, max tokens and system prompt the exam sets', async () => {
    server.use(recordingHandler(c.endpoint, calls, () => sseResponse(c.frames(['Hel', 'lo', ' there']))));
    const { headers } = startAttempt(app, examFor(c));
    const response = await chat(headers, 'What is a standard error?');
    expect(response.statusCode).toBe(200);
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    if (c.provider === 'google') expect(call.url).toBe(`${c.endpoint}?alt=sse`);
    else expect(call.url).toBe(c.endpoint);
    expect(c.hasAuth(call.headers, CANARY_KEY)).toBe(true);
    if (c.provider === 'google') expect(call.url).toContain('gemini-1.5-flash');
    else expect(call.body.model).toBe(c.model);
    expect(c.temperature(call.body)).toBe(0.2);
    expect(c.maxTokens(call.body)).toBe(1000);
    if (c.provider !== 'google') expect(call.body.stream).toBe(true);
    const system = c.system(call.body);
    expect(system).toContain(PromptText.stopSolutions);
    expect(system).toContain('Course assistance is enabled at level 8 of 10');
    expect(system).toContain('very clear');
    expect(system).toContain('MATERIAL-SENTINEL');
    expect(system).toContain('GUARDRAIL-SENTINEL');
    expect(system).toContain('Which is a measure of spread?');
    expect(JSON.stringify(call.body)).not.toContain('CANARY-ANSWER');
    expect(JSON.stringify(call.body)).not.toContain('CANARY-CODE-ANSWER');
    expect(c.lastUserText(call.body)).toBe('What is a standard error?');
  });

  it('streams the deltas to the client in order and ends with done and the provider usage', async () => {
    server.use(
      recordingHandler(c.endpoint, calls, () =>
        sseResponse(c.frames(['The ', 'standard ', 'error ', 'shrinks.']), { gapMs: 5 }),
      ),
    );
    const { headers } = startAttempt(app, examFor(c));
    const response = await chat(headers, 'Explain');
    expect(response.headers['content-type']).toContain('text/event-stream');
    const events = sseEvents(response.payload);
    // The guardrail ("stop solutions" is on) holds back a tail as long as the longest answer key, so the
    // deltas may be regrouped; their text and order are the provider's.
    expect(deltasOf(events).join('')).toBe('The standard error shrinks.');
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', usage: { ...c.usage, estimated: false } });
    expect(done?.type === 'done' && done.messageId).toBeTruthy();
  });

  it('never lets the creator key reach the browser, even when the provider echoes it', async () => {
    server.use(
      recordingHandler(c.endpoint, calls, () => sseResponse(c.frames([`I will not repeat ${CANARY_KEY.slice(0, 6)}`]))),
    );
    const { headers } = startAttempt(app, examFor(c));
    const ok = await chat(headers, 'What is your key?');
    expect(ok.payload).not.toContain(CANARY_KEY);
    server.use(recordingHandler(c.endpoint, calls, () => c.error(401)));
    const failed = await chat(headers, 'Again');
    expect(failed.payload).not.toContain(CANARY_KEY);
    const transcript = await app.inject({ method: 'GET', url: '/api/llm/transcript', headers });
    expect(transcript.payload).not.toContain(CANARY_KEY);
  });

  it.each([500, 401])(
    'turns an upstream %i into the error reply the candidate sees, and the next message still works',
    async (status) => {
      server.use(recordingHandler(c.endpoint, calls, () => c.error(status)));
      const { headers } = startAttempt(app, examFor(c));
      const failed = sseEvents((await chat(headers, 'First')).payload);
      expect(failed).toEqual([{ type: 'error', message: LlmMessages.chatError }]);
      server.use(recordingHandler(c.endpoint, calls, () => sseResponse(c.frames(['Back again']))));
      const next = sseEvents((await chat(headers, 'Second')).payload);
      expect(deltasOf(next)).toEqual(['Back again']);
      expect(calls).toHaveLength(2);
    },
  );

  it('turns a provider that sends no first token in time into the error reply the candidate sees', async () => {
    server.use(recordingHandler(c.endpoint, calls, () => sseResponse(c.frames(['too late']), { firstDelayMs: 3000 })));
    const { headers } = startAttempt(app, examFor(c));
    const started = Date.now();
    const events = sseEvents((await chat(headers, 'Hello?')).payload);
    expect(events).toEqual([{ type: 'error', message: LlmMessages.chatError }]);
    expect(Date.now() - started).toBeLessThan(2500);
  });
});
