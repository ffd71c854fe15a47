import { z } from 'zod';
import {
  AccessCodeInputSchema,
  AccessModeSchema,
  AttemptsAllowedSchema,
  InstantSchema,
  KeepGradeSchema,
  PoolSchema,
  poolIssues,
  windowIssue,
} from './cohort.ts';
import { AiSettingsInputSchema, AiSettingsViewSchema } from './exam-ai.ts';
import { QuestionSchema, type Rubric, RubricSchema, text } from './question.ts';
import { MAX_PASSAGES, PassageSchema, passageIssues } from './passages.ts';
import { RetentionDaysSchema } from './privacy.ts';
import { DEFAULT_REVIEW, type ReviewWindow, ReviewWindowSchema, reviewWindowIssue } from './practice.ts';
import { MAX_SECTIONS, SectionSchema, sectionIssues } from './sections.ts';
import { CodingWorkspaceSchema, QuestionDisplaySchema } from './exam-settings.ts';
import { DEFAULT_UNANSWERED_POLICY, UnansweredPolicySchema } from './unanswered.ts';
import { ExamCapabilitySchema, ExamRoleSchema } from './roles.ts';

/** Exam entity and its settings (docs/product.md#exams). Dates travel as ISO strings. */

export * from './exam-settings.ts';

export const DEFAULT_TIMER_MINUTES = 60;
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;
export const SimilarityThresholdSchema = z.number().min(0.3, 'At least 0.3').max(1, 'At most 1');

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
    questions?: Array<{
      points: number;
      rubricId: string | null;
      poolId: string | null;
      sectionId: string | null;
      passageId: string | null;
    }>;
    rubrics?: Rubric[];
    passages?: Array<z.infer<typeof PassageSchema>>;
    pools?: Array<z.infer<typeof PoolSchema>>;
    sections?: Array<z.infer<typeof SectionSchema>>;
    opensAt?: string | null;
    closesAt?: string | null;
    review?: ReviewWindow;
  },
  ctx: z.RefinementCtx,
) {
  if (exam.questions && exam.rubrics)
    for (const issue of rubricIssues(exam.questions, exam.rubrics)) ctx.addIssue({ code: 'custom', ...issue });
  if (exam.questions && exam.pools)
    for (const issue of poolIssues(exam.questions, exam.pools)) ctx.addIssue({ code: 'custom', ...issue });
  if (exam.questions && exam.sections)
    for (const issue of sectionIssues(exam.questions, exam.sections)) ctx.addIssue({ code: 'custom', ...issue });
  if (exam.questions && exam.passages)
    for (const issue of passageIssues(exam.questions, exam.passages)) ctx.addIssue({ code: 'custom', ...issue });
  const window = windowIssue(exam);
  if (window) ctx.addIssue({ code: 'custom', ...window });
  const review = reviewWindowIssue(exam);
  if (review) ctx.addIssue({ code: 'custom', ...review });
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
  /** What an unanswered question scores (unanswered.ts): 0 at submission, or left to a grader. */
  unansweredPolicy: UnansweredPolicySchema.default(DEFAULT_UNANSWERED_POLICY),
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
  /** Ordered sections, each with its own assistant rule and time limit (sections.ts). Empty: one undivided exam. */
  sections: z.array(SectionSchema).max(MAX_SECTIONS).default([]),
  /** Coding answers at least this similar (0–1, similarity.ts) are flagged on the insights page. */
  similarityThreshold: SimilarityThresholdSchema.default(DEFAULT_SIMILARITY_THRESHOLD),
  /** Shared passages the questions refer to by passageId (passages.ts). */
  passages: z.array(PassageSchema).max(MAX_PASSAGES).default([]),
  /** A practice exam (practice.ts): unlimited attempts, answers checked as the candidate goes, never counted. */
  practice: z.boolean().default(false),
  /** The review window after release (practice.ts). */
  review: ReviewWindowSchema.default(DEFAULT_REVIEW),
  /** Days candidates' attempts are kept after submission (privacy.ts); null keeps them until deleted by hand. */
  retentionDays: RetentionDaysSchema.nullable().default(null),
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
    unansweredPolicy: UnansweredPolicySchema,
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
    sections: z.array(SectionSchema).max(MAX_SECTIONS),
    similarityThreshold: SimilarityThresholdSchema,
    passages: z.array(PassageSchema).max(MAX_PASSAGES),
    practice: z.boolean(),
    review: ReviewWindowSchema,
    retentionDays: RetentionDaysSchema.nullable(),
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
  /** The caller's role on the exam and what it allows (roles.ts), so a client shows only the controls that apply. */
  role: ExamRoleSchema.optional(),
  capabilities: z.array(ExamCapabilitySchema).optional(),
});
export type Exam = z.infer<typeof ExamSchema>;

export const ExamIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** Response envelopes of the exams API (`data.exam.id`, `data.exams[]`). */
export const ExamEnvelopeSchema = z.object({ exam: ExamSchema });
export const ExamListSchema = z.object({ exams: z.array(ExamSchema) });
export const DeletedSchema = z.object({ id: z.string() });
