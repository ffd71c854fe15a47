import { z } from 'zod';
import { AI_PROVIDERS, type AiProvider } from './ai-catalogue.ts';
import {
  type AccessMode,
  type Pool,
  AccessCodeInputSchema,
  AccessModeSchema,
  AttemptsAllowedSchema,
  InstantSchema,
  KeepGradeSchema,
  PoolSchema,
  poolIssues,
  questionsPerCandidate,
  windowIssue,
} from './cohort.ts';
import { codingIssues, codingQuestionFields, isTestGraded, testPoints, type TestCase } from './coding.ts';
import { SCORING_RULES } from './grading.ts';

/** Exam entity and its parts (docs/product.md#exams). Dates travel as ISO strings. */

export const QUESTION_TYPES = ['mcq', 'short-answer', 'file-upload', 'coding'] as const;
export const QuestionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

/**
 * How the candidate's page shows the questions: all in one scrolling list, or one at a time with Previous and
 * Next (docs/product.md#sitting-an-exam). Exams stored before the option existed read as 'all'.
 */
export const QUESTION_DISPLAYS = ['all', 'one'] as const;
export const QuestionDisplaySchema = z.enum(QUESTION_DISPLAYS);
export type QuestionDisplay = z.infer<typeof QuestionDisplaySchema>;

export const CODING_LANGUAGES = ['python', 'javascript', 'sql', 'r', 'java', 'cpp'] as const;
export const CodingLanguageSchema = z.enum(CODING_LANGUAGES);
export type CodingLanguage = z.infer<typeof CodingLanguageSchema>;

export const WORKSPACE_TYPES = ['vscode', 'r-studio', 'oracle-sql', 'excel'] as const;
export const WorkspaceTypeSchema = z.enum(WORKSPACE_TYPES);
export type WorkspaceType = z.infer<typeof WorkspaceTypeSchema>;
export const WORKSPACE_TYPE_LABELS: Record<WorkspaceType, string> = {
  vscode: 'VS Code',
  'r-studio': 'R Studio',
  'oracle-sql': 'Oracle SQL Developer',
  excel: 'MS Excel',
};

export const DEFAULT_MCQ_OPTIONS = ['Option A', 'Option B', 'Option C', 'Option D'];
export const DEFAULT_TIMER_MINUTES = 60;
export const DEFAULT_CONTEXT_LENGTH = 1000;
export const DEFAULT_ASSISTANCE_LEVEL = 5;

const text = (max: number) => z.string().max(max);

export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;
export const SimilarityThresholdSchema = z.number().min(0.3, 'At least 0.3').max(1, 'At most 1');

/** Points of a question or a rubric criterion: more than 0, at most 1000, at most two decimals. */
export const PointsSchema = z
  .number()
  .positive('Points must be more than 0')
  .max(1000)
  .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, 'Points have at most two decimals');

export const RubricCriterionSchema = z.object({
  id: z.string().min(1).max(64),
  description: text(1000),
  points: PointsSchema,
});
/** A marking scheme kept on the exam and attached to any of its questions by id. */
export const RubricSchema = z.object({
  id: z.string().min(1).max(64),
  title: text(200).default(''),
  criteria: z.array(RubricCriterionSchema).min(1, 'A rubric needs at least one criterion').max(30),
});
export type Rubric = z.infer<typeof RubricSchema>;

export const AnswerMatchingSchema = z.object({
  caseSensitive: z.boolean().default(false),
  /** Numeric answers: accepted when within the tolerance of an accepted answer ("3.14 ± 0.01"). */
  numeric: z
    .object({ tolerance: z.number().min(0).max(1e12), mode: z.enum(['absolute', 'relative']).default('absolute') })
    .nullable()
    .default(null),
});

/**
 * The spec's short-answer `correctAnswer` is one accepted answer: it is merged into `acceptedAnswers` on
 * input, never stored beside them and ignored.
 */
function foldShortAnswerKey<Q extends { type: string; correctAnswer?: string | undefined; acceptedAnswers: string[] }>(
  q: Q,
): Q {
  if (q.type !== 'short-answer' || q.correctAnswer === undefined) return q;
  const { correctAnswer, ...rest } = q;
  const key = correctAnswer.trim();
  const acceptedAnswers =
    key === '' || q.acceptedAnswers.includes(correctAnswer) ? q.acceptedAnswers : [...q.acceptedAnswers, correctAnswer];
  return { ...rest, acceptedAnswers } as Q;
}

/** A question as the creator authors it, answer key included. Never sent to a candidate. */
export const QuestionSchema = z
  .object({
    id: z.string().min(1).max(64),
    type: QuestionTypeSchema,
    title: text(500),
    content: text(20000).default(''),
    topic: text(120).default(''),
    points: PointsSchema.default(1),
    options: z.array(text(1000)).max(20).default([]),
    /** Single-answer MCQ: the text of the correct option. Without it a grader decides. */
    correctAnswer: text(1000).optional(),
    /** MCQ: the candidate ticks boxes, and `correctAnswers` is the key. */
    multipleAnswers: z.boolean().default(false),
    correctAnswers: z.array(text(1000)).max(20).default([]),
    scoring: z.enum(SCORING_RULES).default('all-or-nothing'),
    /** Short answer: answers accepted, compared as `matching` says. Empty: a grader decides. */
    acceptedAnswers: z.array(text(1000)).max(50).default([]),
    matching: AnswerMatchingSchema.default({ caseSensitive: false, numeric: null }),
    /** A rubric of the exam the grader ticks for this question. */
    rubricId: z.string().max(64).nullable().default(null),
    language: CodingLanguageSchema.optional(),
    /** The exam's pool this question belongs to (cohort.ts): candidates draw from the pool instead. */
    poolId: z.string().max(64).nullable().default(null),
    // Coding questions graded by tests (coding.ts).
    ...codingQuestionFields,
  })
  .superRefine((q, ctx) => {
    for (const issue of codingIssues(q)) ctx.addIssue({ code: 'custom', ...issue });
    if (q.type !== 'mcq') return;
    if (q.options.length < 2)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'An MCQ needs at least two options' });
    if (q.correctAnswer !== undefined && q.correctAnswer !== '' && !q.options.includes(q.correctAnswer)) {
      ctx.addIssue({
        code: 'custom',
        path: ['correctAnswer'],
        message: 'The correct answer must be one of the options',
      });
    }
    q.correctAnswers.forEach((answer, i) => {
      if (!q.options.includes(answer))
        ctx.addIssue({
          code: 'custom',
          path: ['correctAnswers', i],
          message: 'Each correct answer must be one of the options',
        });
    });
  })
  .transform(foldShortAnswerKey)
  .transform(pointsFromTests);
export type Question = z.infer<typeof QuestionSchema>;

/** A question graded by tests is worth the sum of its tests' points, whatever `points` said. */
function pointsFromTests<
  Q extends { type: QuestionType; language?: string | undefined; tests: TestCase[]; points: number },
>(q: Q): Q {
  return isTestGraded(q) ? { ...q, points: testPoints(q.tests) } : q;
}

/** What a candidate sees of a visible test: its input and expected output, to run and compare. */
export const PublicTestCaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  stdin: z.string(),
  args: z.array(z.string()),
  expected: z.string(),
  points: z.number(),
});
export type PublicTestCase = z.infer<typeof PublicTestCaseSchema>;

/** What a candidate may see of a question. */
export const PublicQuestionSchema = z.object({
  id: z.string(),
  type: QuestionTypeSchema,
  title: z.string(),
  content: z.string(),
  topic: z.string(),
  options: z.array(z.string()),
  /** MCQ: tick every right option (checkboxes) instead of choosing one. */
  multipleAnswers: z.boolean().default(false),
  points: z.number().default(1),
  language: CodingLanguageSchema.optional(),
  /** Coding: the code the editor starts with. */
  starterCode: z.string().optional(),
  /** Coding graded by tests: the visible tests (the candidate can run them) and how many are hidden. */
  visibleTests: z.array(PublicTestCaseSchema).optional(),
  hiddenTestCount: z.number().int().optional(),
  limits: z.object({ cpuSeconds: z.number(), memoryMb: z.number() }).optional(),
  /** With a coding workspace: the workspace file that is the answer. */
  workspaceFile: z.string().nullable().optional(),
});
export type PublicQuestion = z.infer<typeof PublicQuestionSchema>;

/** The largest cohort an exam may ask the orchestrator to pre-start workspaces for. */
export const MAX_EXPECTED_CANDIDATES = 2000;

export const CodingWorkspaceSchema = z.object({
  enabled: z.boolean().default(false),
  saveFilesInResults: z.boolean().default(true),
  workspaceType: WorkspaceTypeSchema.default('vscode'),
  /** Lets the container reach the package registries of the exam's languages. Off by default. */
  allowPackageRegistries: z.boolean().default(false),
  /**
   * How many candidates the creator expects in the availability window: workspace-orchestrator starts that many
   * editors before the window opens (the roster's size counts when it is larger). Null or absent: only the
   * roster counts.
   */
  expectedCandidates: z
    .number()
    .int('Enter a whole number of candidates')
    .min(0, 'Enter 0 or more candidates')
    .max(MAX_EXPECTED_CANDIDATES, `At most ${MAX_EXPECTED_CANDIDATES} candidates`)
    .nullable()
    .optional(),
});
export type CodingWorkspace = z.infer<typeof CodingWorkspaceSchema>;

export const CourseMaterialSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  mimeType: z.string(),
  /** Characters of text extracted on upload. */
  textLength: z.number().int().nonnegative(),
});
export type CourseMaterial = z.infer<typeof CourseMaterialSchema>;

/**
 * Defaults of the exam-wide budget: what every attempt of one exam may spend together in any hour. A class of
 * 30 asking about 20 questions an hour each sends 600 messages; one exchange carries the system prompt (the
 * questions and up to contextLength characters of material), the history and a reply of at most 1000 tokens,
 * typically 1,000–2,000 tokens, so 600 of them need about 1,000,000 tokens. A flood of new attempts can then
 * spend at most that much of the creator's key per hour (the per-attempt limits alone grow with every attempt
 * started); a creator with a larger class raises both.
 */
export const DEFAULT_EXAM_TOKENS_PER_HOUR = 1_000_000;
export const DEFAULT_EXAM_REQUESTS_PER_HOUR = 600;

export const AiBudgetSchema = z.object({
  messagesPerWindow: z.number().int().min(1).max(1000).default(20),
  windowMinutes: z.number().int().min(1).max(240).default(10),
  tokensPerAttempt: z.number().int().min(1000).max(5_000_000).default(100_000),
  /** The exam-wide budget: tokens (prompt and reply) all attempts of the exam may use in any 60 minutes. */
  examTokensPerHour: z
    .number({ error: 'Enter a whole number of tokens' })
    .int('Enter a whole number of tokens')
    .min(1000, 'At least 1,000 tokens per hour')
    .max(100_000_000, 'At most 100,000,000 tokens per hour')
    .default(DEFAULT_EXAM_TOKENS_PER_HOUR),
  /** The exam-wide budget: messages all attempts of the exam may send in any 60 minutes. */
  examRequestsPerHour: z
    .number({ error: 'Enter a whole number of messages' })
    .int('Enter a whole number of messages')
    .min(1, 'At least 1 message per hour')
    .max(100_000, 'At most 100,000 messages per hour')
    .default(DEFAULT_EXAM_REQUESTS_PER_HOUR),
});
export type AiBudget = z.infer<typeof AiBudgetSchema>;
export const DEFAULT_AI_BUDGET: AiBudget = {
  messagesPerWindow: 20,
  windowMinutes: 10,
  tokensPerAttempt: 100_000,
  examTokensPerHour: DEFAULT_EXAM_TOKENS_PER_HOUR,
  examRequestsPerHour: DEFAULT_EXAM_REQUESTS_PER_HOUR,
};

const aiSettingsFields = {
  enabled: z.boolean().default(false),
  provider: z.enum(AI_PROVIDERS).default('openai'),
  model: text(200).default('gpt-4o-mini'),
  /** Only for the openai-compatible provider. */
  baseUrl: z.union([z.url({ protocol: /^https?$/ }), z.literal('')]).default(''),
  customPrompt: text(20000).default(''),
  startMessage: text(5000).default(''),
  stopSolutions: z.boolean().default(true),
  copyLLMResponse: z.boolean().default(true),
  uploadDocuments: z.boolean().default(false),
  processCode: z.boolean().default(false),
  courseAssistanceEnabled: z.boolean().default(false),
  courseAssistanceLevel: z.number().int().min(0).max(10).default(DEFAULT_ASSISTANCE_LEVEL),
  contextLength: z.number().int().min(100).max(10000).default(DEFAULT_CONTEXT_LENGTH),
  budget: AiBudgetSchema.default(() => ({ ...DEFAULT_AI_BUDGET })),
};

/**
 * aiSettings as a creator writes them. `apiKey` is write-only: a string sets it, null clears it,
 * omitted keeps the stored one. Materials are uploaded separately; here only their ids are kept.
 */
export const AiSettingsInputSchema = z.object({
  ...aiSettingsFields,
  apiKey: z.string().max(500).nullable().optional(),
  courseMaterialIds: z.array(z.string()).max(50).default([]),
});
export type AiSettingsInput = z.infer<typeof AiSettingsInputSchema>;

/** aiSettings as any API returns them: never the key, only whether one is set and its last four characters. */
export const AiSettingsViewSchema = z.object({
  ...aiSettingsFields,
  hasApiKey: z.boolean(),
  apiKeyLast4: z.string().nullable(),
  courseMaterials: z.array(CourseMaterialSchema),
});
export type AiSettingsView = z.infer<typeof AiSettingsViewSchema>;

/**
 * When candidates see their result: never; when the creator releases it; or as soon as it is graded (at
 * submission for an exam the key scores entirely).
 */
export const RELEASE_POLICIES = ['never', 'on-release', 'immediately'] as const;
export const ReleasePolicySchema = z.enum(RELEASE_POLICIES);
export type ReleasePolicy = z.infer<typeof ReleasePolicySchema>;

/** Rubric references and totals across an exam: a question's rubric exists and fits within its points. */
export function rubricIssues(
  questions: ReadonlyArray<{ points: number; rubricId: string | null }>,
  rubrics: ReadonlyArray<Rubric>,
): Array<{ path: Array<string | number>; message: string }> {
  const byId = new Map(rubrics.map((r) => [r.id, r]));
  const issues: Array<{ path: Array<string | number>; message: string }> = [];
  questions.forEach((q, i) => {
    if (q.rubricId === null) return;
    const rubric = byId.get(q.rubricId);
    if (!rubric) {
      issues.push({ path: ['questions', i, 'rubricId'], message: 'No rubric of this exam has that id' });
      return;
    }
    const total = Math.round(rubric.criteria.reduce((sum, c) => sum + c.points * 100, 0)) / 100;
    if (total > q.points)
      issues.push({
        path: ['questions', i, 'rubricId'],
        message: `The rubric's criteria add up to ${total} points, more than the question's ${q.points}`,
      });
  });
  return issues;
}

/** Cross-field rules of an exam body: rubrics and pools the questions refer to, and the window's order. */
function checkExam(
  exam: {
    questions?: Array<{ points: number; rubricId: string | null; poolId: string | null }>;
    rubrics?: Rubric[];
    pools?: Array<z.infer<typeof PoolSchema>>;
    opensAt?: string | null;
    closesAt?: string | null;
  },
  ctx: z.RefinementCtx,
) {
  if (exam.questions && exam.rubrics)
    for (const issue of rubricIssues(exam.questions, exam.rubrics)) ctx.addIssue({ code: 'custom', ...issue });
  if (exam.questions && exam.pools)
    for (const issue of poolIssues(exam.questions, exam.pools)) ctx.addIssue({ code: 'custom', ...issue });
  const window = windowIssue(exam);
  if (window) ctx.addIssue({ code: 'custom', ...window });
}

const examFields = {
  title: text(300).default(''),
  description: text(20000).default(''),
  header: text(2000).default(''),
  rules: text(20000).default(''),
  timerEnabled: z.boolean().default(false),
  timerMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(DEFAULT_TIMER_MINUTES),
  fullScreenEnabled: z.boolean().default(false),
  questionDisplay: QuestionDisplaySchema.default('all'),
  questions: z.array(QuestionSchema).max(500).default([]),
  rubrics: z.array(RubricSchema).max(50).default([]),
  releasePolicy: ReleasePolicySchema.default('on-release'),
  /** Whether a released result shows the candidate the answer keys. */
  showAnswerKeys: z.boolean().default(false),
  codingWorkspace: CodingWorkspaceSchema.default({
    enabled: false,
    saveFilesInResults: true,
    workspaceType: 'vscode',
    allowPackageRegistries: false,
  }),
  // Cohorts (cohort.ts): the availability window, attempts, access and per-candidate order.
  opensAt: InstantSchema.nullable().default(null),
  closesAt: InstantSchema.nullable().default(null),
  attemptsAllowed: AttemptsAllowedSchema.default(1),
  keepGrade: KeepGradeSchema.default('highest'),
  shuffleQuestions: z.boolean().default(false),
  shuffleOptions: z.boolean().default(false),
  access: AccessModeSchema.default('link'),
  pools: z.array(PoolSchema).max(50).default([]),
  /** Coding answers at least this similar (0–1, similarity.ts) are flagged on the insights page. */
  similarityThreshold: SimilarityThresholdSchema.default(DEFAULT_SIMILARITY_THRESHOLD),
};

/** POST /api/exams body. `isDraft: false` publishes (starting offline). */
export const CreateExamSchema = z
  .object({
    ...examFields,
    aiSettings: AiSettingsInputSchema.default(AiSettingsInputSchema.parse({})),
    accessCode: AccessCodeInputSchema,
    isDraft: z.boolean().default(true),
  })
  .superRefine(checkExam);
export type CreateExam = z.infer<typeof CreateExamSchema>;

/** PUT /api/exams/{id} body: full or partial. */
export const UpdateExamSchema = z
  .object({
    title: text(300),
    description: text(20000),
    header: text(2000),
    rules: text(20000),
    timerEnabled: z.boolean(),
    timerMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
    fullScreenEnabled: z.boolean(),
    questionDisplay: QuestionDisplaySchema,
    questions: z.array(QuestionSchema).max(500),
    rubrics: z.array(RubricSchema).max(50),
    releasePolicy: ReleasePolicySchema,
    showAnswerKeys: z.boolean(),
    codingWorkspace: CodingWorkspaceSchema,
    aiSettings: AiSettingsInputSchema,
    opensAt: InstantSchema.nullable(),
    closesAt: InstantSchema.nullable(),
    attemptsAllowed: AttemptsAllowedSchema,
    keepGrade: KeepGradeSchema,
    shuffleQuestions: z.boolean(),
    shuffleOptions: z.boolean(),
    access: AccessModeSchema,
    accessCode: AccessCodeInputSchema,
    pools: z.array(PoolSchema).max(50),
    similarityThreshold: SimilarityThresholdSchema,
    isDraft: z.boolean(),
    isLive: z.boolean(),
  })
  .partial()
  .superRefine(checkExam);
export type UpdateExam = z.infer<typeof UpdateExamSchema>;

export const ExamSchema = z.object({
  id: z.string(),
  ownerId: z.string(),
  ...examFields,
  aiSettings: AiSettingsViewSchema,
  /** Whether an access code is set; the code itself is never returned. */
  hasAccessCode: z.boolean(),
  isLive: z.boolean(),
  isDraft: z.boolean(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  lastEditedAt: z.string(),
  updatedAt: z.string(),
});
export type Exam = z.infer<typeof ExamSchema>;

/** The candidate's view of the assistant: enough to show the panel, nothing secret. */
export const PublicAiSettingsSchema = z.object({
  enabled: z.boolean(),
  provider: z.enum(AI_PROVIDERS),
  model: z.string(),
  startMessage: z.string(),
  copyLLMResponse: z.boolean(),
  uploadDocuments: z.boolean(),
  /** Names of the course materials the assistant has read (for the greeting), not their text. */
  materialNames: z.array(z.string()),
  /** What keeps the assistant from working, in the spec's words ('API key missing.' …); empty when ready. */
  missing: z.array(z.string()),
});
export type PublicAiSettings = z.infer<typeof PublicAiSettingsSchema>;

/** GET /api/public/exams/{id}: only what a candidate may see. */
export const PublicExamSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  header: z.string(),
  rules: z.string(),
  timerEnabled: z.boolean(),
  timerMinutes: z.number(),
  fullScreenEnabled: z.boolean(),
  /** Absent from a view cached before the option existed: read as 'all'. */
  questionDisplay: QuestionDisplaySchema.default('all'),
  isLive: z.boolean(),
  questions: z.array(PublicQuestionSchema),
  codingWorkspace: CodingWorkspaceSchema,
  aiSettings: PublicAiSettingsSchema,
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  access: AccessModeSchema,
  attemptsAllowed: z.number().int(),
  /** Questions each candidate gets (pools draw fewer than they hold). */
  questionCount: z.number().int(),
});
export type PublicExam = z.infer<typeof PublicExamSchema>;

/**
 * GET /api/public/exams/{id}: what the start pages need before an attempt exists. The questions reach a
 * browser only with an attempt (its snapshot) or an owner's preview token (docs/product.md#sitting-an-exam).
 */
export const PublicExamSummarySchema = PublicExamSchema.omit({ questions: true });
export type PublicExamSummary = z.infer<typeof PublicExamSummarySchema>;

/** POST /api/exams/{id}/preview-token: a short-lived, read-only token for one exam's preview. */
export const PreviewTokenResponseSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type PreviewTokenResponse = z.infer<typeof PreviewTokenResponseSchema>;

/** What the preview page and GET /api/public/exams/{id}/preview say when the preview is refused. */
export const PreviewMessages = {
  missing: 'This preview link is not valid. Open the preview from your dashboard.',
  invalid: 'This preview link is not valid or has expired. Open the preview again from your dashboard.',
  otherExam: 'This preview token is for another exam.',
} as const;

export function toPublicQuestion(q: Question): PublicQuestion {
  return {
    id: q.id,
    type: q.type,
    title: q.title,
    content: q.content,
    topic: q.topic,
    options: q.type === 'mcq' ? q.options : [],
    multipleAnswers: q.type === 'mcq' && q.multipleAnswers,
    points: q.points,
    language: q.language,
    ...(q.type === 'coding' ? codingView(q) : {}),
  };
}

/** A coding question's starter code, visible tests, hidden test count and limits for the candidate. */
function codingView(
  q: Question,
): Pick<PublicQuestion, 'starterCode' | 'visibleTests' | 'hiddenTestCount' | 'limits' | 'workspaceFile'> {
  const graded = isTestGraded(q);
  return {
    starterCode: q.starterCode,
    visibleTests: graded
      ? q.tests
          .filter((t) => t.visible)
          .map((t) => ({
            id: t.id,
            name: t.name,
            stdin: t.stdin,
            args: t.args,
            expected: t.expected,
            points: t.points,
          }))
      : [],
    hiddenTestCount: graded ? q.tests.filter((t) => !t.visible).length : 0,
    limits: graded ? q.limits : undefined,
    workspaceFile: q.workspaceFile,
  };
}

/** Spec section 5 ('AI panel requires enabled, provider and model, and lists what is missing'). */
export function missingAiConfiguration(ai: { provider?: string; model?: string; hasKey: boolean }): string[] {
  const missing: string[] = [];
  if (!ai.hasKey) missing.push('API key missing.');
  if (!ai.provider) missing.push('Provider not selected.');
  if (!ai.model) missing.push('Model not selected.');
  return missing;
}

/**
 * Whether the assistant has a key to work with: the creator's own, the server's default for that
 * provider, or a self-hosted OpenAI-compatible server (which needs only its base URL).
 */
export function hasUsableAiKey(
  ai: { provider: AiProvider; baseUrl: string },
  keys: { hasCreatorKey: boolean; serverKeys: Partial<Record<AiProvider, boolean>> },
): boolean {
  return (
    keys.hasCreatorKey ||
    keys.serverKeys[ai.provider] === true ||
    (ai.provider === 'openai-compatible' && ai.baseUrl !== '')
  );
}

/** What the candidate's view of an exam is built from: a stored exam, or an attempt's snapshot of one. */
export type PublicExamSource = {
  id: string;
  title: string;
  description: string;
  header: string;
  rules: string;
  timerEnabled: boolean;
  timerMinutes: number;
  fullScreenEnabled: boolean;
  questionDisplay: QuestionDisplay;
  isLive: boolean;
  questions: Question[];
  codingWorkspace: CodingWorkspace;
  opensAt: Date | string | null;
  closesAt: Date | string | null;
  access: AccessMode;
  attemptsAllowed: number;
  pools: Array<Pick<Pool, 'id' | 'draw'>>;
  aiSettings: {
    enabled: boolean;
    provider: AiProvider;
    model: string;
    startMessage: string;
    copyLLMResponse: boolean;
    uploadDocuments: boolean;
  };
};

const instant = (value: Date | string | null): string | null =>
  value === null ? null : typeof value === 'string' ? value : value.toISOString();

/**
 * The candidate's view of an exam (docs/product.md#sitting-an-exam), field by field so nothing else leaks:
 * questions without their answer keys, the assistant without its key, prompt or material text.
 * Every service that shows a candidate an exam builds it here, so they all strip the same way.
 */
export function toPublicExam(
  exam: PublicExamSource,
  assistant: { materialNames: string[]; hasUsableKey: boolean },
): PublicExam {
  const ai = exam.aiSettings;
  return {
    id: exam.id,
    title: exam.title,
    description: exam.description,
    header: exam.header,
    rules: exam.rules,
    timerEnabled: exam.timerEnabled,
    timerMinutes: exam.timerMinutes,
    fullScreenEnabled: exam.fullScreenEnabled,
    questionDisplay: exam.questionDisplay,
    isLive: exam.isLive,
    questions: exam.questions.map(toPublicQuestion),
    codingWorkspace: exam.codingWorkspace,
    opensAt: instant(exam.opensAt),
    closesAt: instant(exam.closesAt),
    access: exam.access,
    attemptsAllowed: exam.attemptsAllowed,
    questionCount: questionsPerCandidate(exam.questions, exam.pools),
    aiSettings: {
      enabled: ai.enabled,
      provider: ai.provider,
      model: ai.model,
      startMessage: ai.startMessage,
      copyLLMResponse: ai.copyLLMResponse,
      uploadDocuments: ai.uploadDocuments,
      materialNames: assistant.materialNames,
      missing: missingAiConfiguration({ provider: ai.provider, model: ai.model, hasKey: assistant.hasUsableKey }),
    },
  };
}

export const ExamIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** Response envelopes of the exams API (`data.exam.id`, `data.exams[]`). */
export const ExamEnvelopeSchema = z.object({ exam: ExamSchema });
export const ExamListSchema = z.object({ exams: z.array(ExamSchema) });
export const DeletedSchema = z.object({ id: z.string() });
export const CourseMaterialListSchema = z.object({ materials: z.array(CourseMaterialSchema) });
export type CourseMaterialList = z.infer<typeof CourseMaterialListSchema>;

/** Course material uploads (pdf, doc, docx and txt, several at once). */
export const COURSE_MATERIAL_EXTENSIONS = ['pdf', 'doc', 'docx', 'txt'] as const;

/** The candidate-facing messages of the public exam view (shown on the candidate's start page). */
export const PublicExamMessages = {
  notFound: 'Exam not found. Please check the URL or contact your test provider.',
  offline: 'This exam is currently offline. Please contact your test provider.',
} as const;
