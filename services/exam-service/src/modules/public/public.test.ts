import { PublicExamMessages } from '@exam/domain/public-exam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';
import { multipartBody } from '../../testing/files.ts';

describe('public candidate view', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  let other: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp({ env: { ANTHROPIC_API_KEY: 'server-default-anthropic-key' } });
    owner = await createCreator(app);
    other = await createCreator(app);
  });
  afterAll(() => app.close());

  const view = (id: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `/api/public/exams/${id}`, headers });
  async function liveExam(overrides: Record<string, unknown> = {}) {
    const exam = await createExam(app, owner.headers, { isDraft: false, ...overrides });
    await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}`,
      headers: owner.headers,
      payload: { isLive: true },
    });
    return exam;
  }

  it('shows anyone a live exam without its questions, answer keys or secrets', async () => {
    const exam = await liveExam({
      aiSettings: { enabled: true, apiKey: 'sk-secret-key-9876', customPrompt: 'PROMPT-CANARY never reveal' },
    });
    const response = await view(exam.id);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ id: exam.id, title: 'Cell biology midterm', isLive: true, timerMinutes: 45 });
    // The questions come only with an attempt or the owner's preview token.
    expect(body).not.toHaveProperty('questions');
    expect(response.body).not.toContain('Powerhouse of the cell');
    expect(response.body).not.toContain('ANSWER-CANARY');
    expect(body.aiSettings).toEqual({
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      startMessage: '',
      copyLLMResponse: true,
      uploadDocuments: false,
      plantedErrors: false,
      followUp: null,
      materialNames: [],
      missing: [],
    });
    expect(response.body).not.toContain('ACCEPTED-CANARY');
    expect(response.body).not.toContain('correctAnswer');
    expect(response.body).not.toContain('PROMPT-CANARY');
    expect(response.body).not.toContain('sk-secret');
    expect(response.body).not.toContain('ownerId');
  });

  it("ignores ?creator=true and the owner's own token: neither shows the questions", async () => {
    const exam = await liveExam();
    for (const response of [
      await app.inject({ method: 'GET', url: `/api/public/exams/${exam.id}?creator=true` }),
      await view(exam.id, owner.headers),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).not.toHaveProperty('questions');
      expect(response.body).not.toContain('Powerhouse of the cell');
    }
  });

  it('lists material names but not their text', async () => {
    const form = multipartBody([{ name: 'reading.txt', content: Buffer.from('MATERIAL-TEXT-CANARY') }]);
    const upload = await app.inject({
      method: 'POST',
      url: '/api/materials',
      headers: { ...owner.headers, ...form.headers },
      payload: form.payload,
    });
    const exam = await liveExam({ aiSettings: { courseMaterialIds: [upload.json().materials[0].id] } });
    const response = await view(exam.id);
    expect(response.json().aiSettings.materialNames).toEqual(['reading.txt']);
    expect(response.body).not.toContain('MATERIAL-TEXT-CANARY');
  });

  it('reports the missing key unless the creator or the server has one for the provider', async () => {
    const noKey = await liveExam({ aiSettings: { enabled: true, provider: 'groq', model: '' } });
    expect((await view(noKey.id)).json().aiSettings.missing).toEqual(['API key missing.', 'Model not selected.']);
    const serverKey = await liveExam({
      aiSettings: { enabled: true, provider: 'anthropic', model: 'claude-sonnet-4' },
    });
    expect((await view(serverKey.id)).json().aiSettings.missing).toEqual([]);
    const selfHosted = await liveExam({
      aiSettings: {
        enabled: true,
        provider: 'openai-compatible',
        model: 'llama3',
        baseUrl: 'http://127.0.0.1:11434/v1',
      },
    });
    expect((await view(selfHosted.id)).json().aiSettings.missing).toEqual([]);
  });

  it('answers 404 with the spec message for an unknown id and for a draft', async () => {
    const draft = await createExam(app, owner.headers);
    for (const id of ['no-such-exam', draft.id]) {
      const response = await view(id);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({ code: 'NOT_FOUND', message: PublicExamMessages.notFound });
    }
  });

  it('answers 403 EXAM_OFFLINE for a published exam that is not live', async () => {
    const exam = await createExam(app, owner.headers, { isDraft: false });
    const response = await view(exam.id);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({ code: 'EXAM_OFFLINE', message: PublicExamMessages.offline });
    expect(response.body).not.toContain('Cell biology');
  });

  it("no longer previews an offline exam or a draft for the owner's creator token", async () => {
    const offline = await createExam(app, owner.headers, { isDraft: false });
    const asOwner = await view(offline.id, owner.headers);
    expect(asOwner.statusCode).toBe(403);
    expect(asOwner.body).not.toContain('Cell biology');
    expect((await view(offline.id, other.headers)).statusCode).toBe(403);
    const draft = await createExam(app, owner.headers);
    expect((await view(draft.id, owner.headers)).statusCode).toBe(404);
    expect((await view(draft.id, other.headers)).statusCode).toBe(404);
  });

  it('treats an invalid token as an ordinary candidate', async () => {
    const offline = await createExam(app, owner.headers, { isDraft: false });
    expect((await view(offline.id, { authorization: `${owner.headers.authorization}x` })).statusCode).toBe(403);
  });
});
