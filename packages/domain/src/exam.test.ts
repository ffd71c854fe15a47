import { describe, expect, it } from 'vitest';
import { hasUsableAiKey } from './exam-ai.ts';
import { PublicExamSchema, toPublicExam, type PublicExamSource } from './public-exam.ts';
import { QuestionSchema } from './question.ts';

const SECRET = 'SECRET-3b1d';

/** An exam as a service holds it: answer keys, the assistant's key and prompt, material text. */
function storedExam(): PublicExamSource & Record<string, unknown> {
  return {
    id: 'exam-1',
    title: 'Biology',
    description: 'Midterm',
    header: 'Section A',
    rules: 'No notes',
    timerEnabled: true,
    timerMinutes: 30,
    fullScreenEnabled: true,
    questionDisplay: 'one',
    isLive: true,
    opensAt: new Date('2026-12-01T09:00:00Z'),
    closesAt: null,
    access: 'code',
    attemptsAllowed: 2,
    pools: [],
    accessCodeHash: `${SECRET}-key-hash`,
    questions: [
      QuestionSchema.parse({
        id: 'q1',
        type: 'mcq',
        title: 'Powerhouse',
        options: ['Nucleus', `${SECRET}-mcq`],
        correctAnswer: `${SECRET}-mcq`,
      }),
      QuestionSchema.parse({
        id: 'q2',
        type: 'short-answer',
        title: 'Organ',
        options: ['left over'],
        acceptedAnswers: [`${SECRET}-short`],
      }),
      QuestionSchema.parse({ id: 'q3', type: 'coding', title: 'Fibonacci', language: 'python' }),
    ],
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
    aiSettings: {
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      startMessage: 'Hello',
      copyLLMResponse: false,
      uploadDocuments: true,
      customPrompt: `${SECRET}-prompt`,
      encryptedApiKey: `${SECRET}-key`,
      baseUrl: '',
    } as PublicExamSource['aiSettings'],
    materialTexts: [{ name: 'week1.pdf', text: `${SECRET}-material` }],
    ownerId: 'owner-1',
  };
}

describe('toPublicExam', () => {
  it('passes the question display on, and a view cached before the option existed reads as all', () => {
    const view = toPublicExam(storedExam(), { materialNames: [], hasUsableKey: true });
    expect(view.questionDisplay).toBe('one');
    const { questionDisplay: _dropped, ...older } = view;
    expect(PublicExamSchema.parse(older).questionDisplay).toBe('all');
    expect(() => PublicExamSchema.parse({ ...view, questionDisplay: 'two' })).toThrow();
  });

  it('keeps what a candidate may see and drops answer keys, the key, the prompt and material text', () => {
    const view = toPublicExam(storedExam(), { materialNames: ['week1.pdf'], hasUsableKey: true });
    expect(PublicExamSchema.strict().parse(view)).toEqual(view);
    expect(JSON.stringify(view)).not.toMatch(/SECRET-3b1d-(short|prompt|key|material)/);
    const sent = JSON.parse(JSON.stringify(view)) as typeof view;
    expect(sent.questions.map((q) => Object.keys(q).sort())).toEqual([
      ['content', 'id', 'multipleAnswers', 'options', 'passageId', 'points', 'sectionId', 'title', 'topic', 'type'],
      ['content', 'id', 'multipleAnswers', 'options', 'passageId', 'points', 'sectionId', 'title', 'topic', 'type'],
      [
        'content',
        'hiddenTestCount',
        'id',
        'language',
        'multipleAnswers',
        'options',
        'passageId',
        'points',
        'sectionId',
        'starterCode',
        'title',
        'topic',
        'type',
        'visibleTests',
        'workspaceFile',
      ],
    ]);
    // An MCQ keeps its options (one of which is the answer); other types never show options.
    expect(view.questions[1]?.options).toEqual([]);
    expect(view.aiSettings).toEqual({
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      startMessage: 'Hello',
      copyLLMResponse: false,
      uploadDocuments: true,
      plantedErrors: false,
      followUp: null,
      materialNames: ['week1.pdf'],
      missing: [],
    });
    expect(view).toMatchObject({
      opensAt: '2026-12-01T09:00:00.000Z',
      closesAt: null,
      access: 'code',
      attemptsAllowed: 2,
      questionCount: 3,
    });
  });

  it('tells the candidate of follow-up questions only when the assistant and the follow-up are both on', () => {
    const followUp = { enabled: true, questions: 3, secondsPerQuestion: 120 };
    const withFollowUp = (enabled: boolean, on: boolean) => {
      const exam = storedExam();
      return toPublicExam(
        { ...exam, aiSettings: { ...exam.aiSettings, enabled, followUp: { ...followUp, enabled: on } } },
        { materialNames: [], hasUsableKey: true },
      ).aiSettings.followUp;
    };
    expect(withFollowUp(true, true)).toEqual({ questions: 3, secondsPerQuestion: 120 });
    expect(withFollowUp(true, false)).toBeNull();
    expect(withFollowUp(false, true)).toBeNull();
  });

  it('lists the missing key when the assistant has none', () => {
    expect(toPublicExam(storedExam(), { materialNames: [], hasUsableKey: false }).aiSettings.missing).toEqual([
      'API key missing.',
    ]);
  });
});

describe('hasUsableAiKey', () => {
  const none = { hasCreatorKey: false, serverKeys: {} };
  it("accepts the creator's key, the server's key for that provider, or a self-hosted base URL", () => {
    expect(hasUsableAiKey({ provider: 'openai', baseUrl: '' }, { ...none, hasCreatorKey: true })).toBe(true);
    expect(
      hasUsableAiKey({ provider: 'groq', baseUrl: '' }, { hasCreatorKey: false, serverKeys: { groq: true } }),
    ).toBe(true);
    expect(hasUsableAiKey({ provider: 'openai-compatible', baseUrl: 'http://llm.local' }, none)).toBe(true);
  });

  it('refuses a server key of another provider and a self-hosted server without a URL', () => {
    expect(
      hasUsableAiKey({ provider: 'anthropic', baseUrl: '' }, { hasCreatorKey: false, serverKeys: { openai: true } }),
    ).toBe(false);
    expect(hasUsableAiKey({ provider: 'openai-compatible', baseUrl: '' }, none)).toBe(false);
  });
});
