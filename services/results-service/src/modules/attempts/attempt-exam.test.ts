import { PublicExamSchema, type PublicExam } from '@exam/domain/public-exam';
import { QuestionSchema } from '@exam/domain/question';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempts } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeExam } from '../../testing/exams.ts';

describe('GET /api/attempts/{attemptId}/exam', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const view = (attempt: { attemptId: string; headers?: Record<string, string> }) =>
    app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/exam`,
      ...(attempt.headers ? { headers: attempt.headers } : {}),
    });

  it('returns the snapshot taken at start even after the creator edits the live exam', async () => {
    const exam = app.exams.put(
      makeExam({
        title: 'Biology midterm',
        timerMinutes: 30,
        description: 'Read carefully',
        rules: 'No notes',
        fullScreenEnabled: true,
      }),
    );
    const attempt = await startAttempt(app, exam.id);
    // The creator rewrites the exam mid-attempt: new first question, a question removed, new timer and texts.
    app.exams.put({
      ...exam,
      title: 'Biology midterm (edited)',
      timerMinutes: 90,
      description: 'Changed',
      rules: 'Changed',
      fullScreenEnabled: false,
      questions: [
        QuestionSchema.parse({
          id: 'new',
          type: 'short-answer',
          title: 'A new first question',
          acceptedAnswers: ['x'],
        }),
        ...exam.questions.slice(0, 2),
      ],
    });

    const response = await view(attempt);
    expect(response.statusCode).toBe(200);
    const body = PublicExamSchema.parse(response.json());
    expect(body).toMatchObject({
      id: exam.id,
      title: 'Biology midterm',
      timerMinutes: 30,
      description: 'Read carefully',
      rules: 'No notes',
      fullScreenEnabled: true,
      isLive: true,
    });
    expect(body.questions.map((q) => [q.id, q.type, q.title])).toEqual([
      ['q1', 'mcq', 'Cell powerhouse'],
      ['q2', 'short-answer', 'Largest organ'],
      ['q3', 'file-upload', 'Lab report'],
      ['q4', 'coding', 'Fibonacci'],
    ]);
    expect(body.questions[0]?.options).toEqual(['Nucleus', CANARY, 'Ribosome']);
  });

  it('contains no answer key, accepted answer, API key, guardrail prompt or material text', async () => {
    const exam = app.exams.put(
      makeExam({
        questions: [
          { id: 'q1', type: 'short-answer', title: 'Largest organ', acceptedAnswers: [CANARY] },
          {
            id: 'q2',
            type: 'mcq',
            title: 'Pick',
            options: ['A', 'B'],
            correctAnswer: 'B',
            acceptedAnswers: [`${CANARY}-mcq`],
          },
        ],
        aiSettings: {
          enabled: true,
          customPrompt: `${CANARY}-prompt`,
          hasApiKey: true,
          apiKeyLast4: 'ab12',
          encryptedApiKey: `${CANARY}-key`,
          courseMaterials: [{ id: 'm1', name: 'week1.pdf', size: 10, mimeType: 'application/pdf', textLength: 30 }],
        },
        materialTexts: [{ name: 'week1.pdf', text: `${CANARY}-material` }],
      }),
    );
    const attempt = await startAttempt(app, exam.id);
    const response = await view(attempt);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(CANARY);
    expect(response.body).not.toContain('ab12');
    expect(response.body).not.toContain('correctAnswer');
    expect(response.body).not.toContain('acceptedAnswers');
    const body = response.json() as PublicExam;
    expect(body.aiSettings).toMatchObject({ enabled: true, materialNames: ['week1.pdf'], missing: [] });
  });

  it("takes live-ness and the assistant's settings from the live exam, as llm-gateway does", async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    expect((await view(attempt)).json().aiSettings).toMatchObject({ enabled: false, missing: ['API key missing.'] });

    app.exams.put({
      ...exam,
      isLive: false,
      aiSettings: {
        ...exam.aiSettings,
        enabled: true,
        provider: 'openai-compatible',
        baseUrl: 'http://llm.local',
        model: 'qwen',
      },
    });
    const offline = (await view(attempt)).json() as PublicExam;
    expect(offline.isLive).toBe(false);
    expect(offline.aiSettings).toMatchObject({
      enabled: true,
      provider: 'openai-compatible',
      model: 'qwen',
      missing: [],
    });
  });

  it('counts the server default key of the provider as a usable key', async () => {
    const withKeys = await buildTestApp({ env: { OPENAI_API_KEY: 'sk-server-default' } });
    try {
      const exam = withKeys.exams.put(
        makeExam({
          aiSettings: {
            enabled: true,
            provider: 'openai',
            model: 'gpt-4o-mini',
            hasApiKey: false,
            apiKeyLast4: null,
            courseMaterials: [],
            encryptedApiKey: null,
          },
        }),
      );
      const attempt = await startAttempt(withKeys, exam.id);
      const response = await withKeys.inject({
        method: 'GET',
        url: `/api/attempts/${attempt.attemptId}/exam`,
        headers: attempt.headers,
      });
      expect(response.json().aiSettings.missing).toEqual([]);
      expect(response.body).not.toContain('sk-server-default');
    } finally {
      await withKeys.close();
    }
  });

  it('still serves the snapshot when exam-service no longer has the exam, marked not live with the assistant off', async () => {
    const exam = app.exams.put(
      makeExam({
        aiSettings: { enabled: true, hasApiKey: true, apiKeyLast4: 'ab12', courseMaterials: [], encryptedApiKey: 'x' },
      }),
    );
    const attempt = await startAttempt(app, exam.id);
    app.exams.remove(exam.id);
    const response = await view(attempt);
    expect(response.statusCode).toBe(200);
    const body = response.json() as PublicExam;
    expect(body.isLive).toBe(false);
    expect(body.aiSettings.enabled).toBe(false);
    expect(body.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
  });

  it('falls back to the live texts for an attempt whose snapshot predates them', async () => {
    const exam = app.exams.put(
      makeExam({ description: 'Live description', header: 'Live header', fullScreenEnabled: true }),
    );
    const attempt = await startAttempt(app, exam.id);
    await app.db
      .update(attempts)
      .set({ examSnapshot: sql`${attempts.examSnapshot} - 'description' - 'header' - 'rules' - 'fullScreenEnabled'` })
      .where(eq(attempts.id, attempt.attemptId));
    expect((await view(attempt)).json()).toMatchObject({
      description: 'Live description',
      header: 'Live header',
      rules: '',
      fullScreenEnabled: true,
    });
  });

  it('keeps the question display of the start, and reads a snapshot without it from the live exam', async () => {
    const exam = app.exams.put(makeExam({ questionDisplay: 'one' }));
    const attempt = await startAttempt(app, exam.id);
    app.exams.put({ ...exam, questionDisplay: 'all' });
    expect((await view(attempt)).json().questionDisplay).toBe('one');
    await app.db
      .update(attempts)
      .set({ examSnapshot: sql`${attempts.examSnapshot} - 'questionDisplay'` })
      .where(eq(attempts.id, attempt.attemptId));
    expect((await view(attempt)).json().questionDisplay).toBe('all');
  });

  it("answers 404 to another attempt's token, 403 to a creator and 401 without a token", async () => {
    const exam = app.exams.put(makeExam());
    const mine = await startAttempt(app, exam.id);
    const other = await startAttempt(app, exam.id);
    expect((await view({ attemptId: mine.attemptId, headers: other.headers })).statusCode).toBe(404);
    expect((await view({ attemptId: mine.attemptId, headers: creatorHeaders(app, exam.ownerId) })).statusCode).toBe(
      403,
    );
    expect((await view({ attemptId: mine.attemptId })).statusCode).toBe(401);
  });
});
