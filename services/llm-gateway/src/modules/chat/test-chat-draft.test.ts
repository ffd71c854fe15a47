import { AiSettingsInputSchema, type AiSettingsInput } from '@exam/domain/exam-ai';
import { LlmMessages } from '@exam/domain/llm';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { buildTestApp, creatorHeaders, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { deltasOf, sseEvents } from '../../testing/sse.ts';

const server = setupServer();
const calls: RecordedCall[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

/** The editor's settings on screen: the saved exam's, with the changes the creator has not saved. */
const draft = (changes: Partial<AiSettingsInput> = {}) =>
  AiSettingsInputSchema.parse({ enabled: true, provider: 'openai', model: 'gpt-4o-mini', ...changes });

describe("Test Assistant with the editor's unsaved settings", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const testChat = (examId: string, ownerId: string, aiSettings?: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/llm/test-chat',
      headers: creatorHeaders(app, ownerId),
      payload: { examId, messages: [{ role: 'user', content: 'hi' }], ...(aiSettings ? { aiSettings } : {}) },
    });

  it('calls the model with the prompt, model and key on screen instead of the saved ones', async () => {
    server.use(
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () => sseResponse(openAiFrames(['Arr.']))),
    );
    const exam = makeExam({ model: 'gpt-4o-mini', apiKey: 'sk-saved-0000' });
    app.platform.exams.set(exam.id, exam);

    const response = await testChat(
      exam.id,
      exam.ownerId,
      draft({ model: 'gpt-4o', customPrompt: 'Answer like a ship captain.', apiKey: 'sk-typed-1234' }),
    );
    expect(response.statusCode).toBe(200);
    expect(deltasOf(sseEvents(response.payload)).join('')).toBe('Arr.');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body.model).toBe('gpt-4o');
    expect(calls[0]?.headers.authorization).toBe('Bearer sk-typed-1234');
    expect(JSON.stringify(calls[0]?.body.messages)).toContain('Answer like a ship captain.');

    // Without a draft the saved settings still serve, and the saved key was not replaced.
    await testChat(exam.id, exam.ownerId);
    expect(calls[1]?.body.model).toBe('gpt-4o-mini');
    expect(calls[1]?.headers.authorization).toBe('Bearer sk-saved-0000');
  });

  it('keeps the stored key when the draft does not touch it, and uses none when the draft clears it', async () => {
    server.use(
      recordingHandler(`${TEST_ENDPOINTS.openai}/chat/completions`, calls, () => sseResponse(openAiFrames(['ok']))),
    );
    const exam = makeExam({ apiKey: 'sk-saved-5678' });
    app.platform.exams.set(exam.id, exam);
    expect((await testChat(exam.id, exam.ownerId, draft())).statusCode).toBe(200);
    expect(calls[0]?.headers.authorization).toBe('Bearer sk-saved-5678');

    const cleared = await testChat(exam.id, exam.ownerId, draft({ apiKey: null }));
    expect(cleared.statusCode).toBe(409);
    expect(cleared.json().error.message).toBe(`${LlmMessages.configurationIncomplete} API key missing.`);
    expect(calls).toHaveLength(1);
  });

  it('refuses a draft a save would refuse (400 naming the field) or with the assistant off (403), calling nothing', async () => {
    const exam = makeExam();
    app.platform.exams.set(exam.id, exam);
    const invalid = await testChat(exam.id, exam.ownerId, { ...draft(), contextLength: 5 });
    expect(invalid.statusCode).toBe(400);
    expect(JSON.stringify(invalid.json().error)).toContain('aiSettings.contextLength');

    const off = await testChat(exam.id, exam.ownerId, draft({ enabled: false }));
    expect(off.statusCode).toBe(403);
    expect(calls).toHaveLength(0);
  });

  it("never tries another creator's exam, whatever settings come with it", async () => {
    const exam = makeExam();
    app.platform.exams.set(exam.id, exam);
    const response = await testChat(exam.id, crypto.randomUUID(), draft({ apiKey: 'sk-mine-0001' }));
    expect(response.statusCode).toBe(404);
    expect(calls).toHaveLength(0);
  });
});
