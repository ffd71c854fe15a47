import type { PublicExam, PublicQuestion } from '@exam/domain/exam';

let counter = 0;
const nextId = (prefix: string) => `${prefix}-${++counter}`;

export function buildQuestion(overrides: Partial<PublicQuestion> = {}): PublicQuestion {
  return {
    id: nextId('q'),
    type: 'short-answer',
    title: 'A question',
    content: '',
    topic: '',
    options: [],
    multipleAnswers: false,
    points: 1,
    ...overrides,
  };
}

export function buildPublicExam(overrides: Partial<PublicExam> = {}): PublicExam {
  return {
    id: nextId('exam'),
    title: 'Algebra Basics',
    description: '',
    header: '',
    rules: '',
    timerEnabled: false,
    timerMinutes: 60,
    fullScreenEnabled: false,
    isLive: true,
    questions: [buildQuestion()],
    codingWorkspace: {
      enabled: false,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
    aiSettings: {
      enabled: false,
      provider: 'openai',
      model: 'gpt-4o-mini',
      startMessage: '',
      copyLLMResponse: true,
      uploadDocuments: false,
      materialNames: [],
      missing: [],
    },
    ...overrides,
  };
}

export function buildAllTypesExam(overrides: Partial<PublicExam> = {}): PublicExam {
  return buildPublicExam({
    questions: [
      buildQuestion({ type: 'mcq', title: 'Pick a prime', options: ['4', '6', '7', '9'] }),
      buildQuestion({ type: 'short-answer', title: 'Name the capital of France', content: 'One word.' }),
      buildQuestion({ type: 'file-upload', title: 'Upload your report' }),
      buildQuestion({ type: 'coding', title: 'Reverse a string', language: 'python' }),
    ],
    ...overrides,
  });
}
