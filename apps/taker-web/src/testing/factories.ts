import type { PublicExam } from '@exam/domain/public-exam';
import type { PublicQuestion } from '@exam/domain/question';
import type { CandidateResult } from '@exam/domain/result';

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
    questionDisplay: 'all',
    isLive: true,
    questions: [buildQuestion()],
    opensAt: null,
    closesAt: null,
    access: 'link',
    attemptsAllowed: 1,
    questionCount: 1,
    sections: [],
    passages: [],
    practice: false,
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

type CandidateQuestion = CandidateResult['questions'][number];

export function buildCandidateQuestion(overrides: Partial<CandidateQuestion> = {}): CandidateQuestion {
  return {
    title: 'A question',
    questionType: 'short-answer',
    answer: 'An answer',
    points: 1,
    maxPoints: 1,
    feedback: '',
    correctAnswer: null,
    ...overrides,
  };
}

/** GET /api/attempts/{id}/result as the server sends a released result (no answer keys unless overridden). */
export function buildCandidateResult(overrides: Partial<CandidateResult> = {}): CandidateResult {
  return {
    examTitle: 'Algebra Basics',
    userName: 'Ada Lovelace',
    score: 1,
    maxScore: 1,
    percentage: 100,
    status: 'released',
    releasedAt: new Date().toISOString(),
    questions: [buildCandidateQuestion()],
    ...overrides,
  };
}
