import { z } from 'zod';
import {
  type TestCase,
  allowedLanguages,
  codingIssues,
  codingQuestionFields,
  isTestGraded,
  testPoints,
} from './coding.ts';
import { SCORING_RULES } from './grading.ts';
import { plantedErrorIssues } from './planted-errors.ts';
import {
  BlankSchema,
  CalculatedSettingsSchema,
  DEFAULT_ESSAY,
  DEFAULT_UNITS,
  EMPTY_FEEDBACK,
  EssaySettingsSchema,
  MatchPairSchema,
  OrderingItemsSchema,
  QuestionFeedbackSchema,
  UnitSettingsSchema,
  questionKindIssues,
} from './question-kinds.ts';
import { hashSeed, mulberry32, shuffled } from './arrangement.ts';

/** A question as the creator authors it and as a candidate sees it (docs/product.md#exams). */

export const QUESTION_TYPES = [
  'mcq',
  'short-answer',
  'file-upload',
  'coding',
  'essay',
  'true-false',
  'ordering',
  'matching',
  'fill-blanks',
  'numeric',
  'calculated',
] as const;
export const QuestionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

export const CODING_LANGUAGES = ['python', 'javascript', 'sql', 'r', 'java', 'cpp'] as const;
export const CodingLanguageSchema = z.enum(CODING_LANGUAGES);
export type CodingLanguage = z.infer<typeof CodingLanguageSchema>;

export const DEFAULT_MCQ_OPTIONS = ['Option A', 'Option B', 'Option C', 'Option D'];
/** A string of at most `max` characters (shared by the exam's schemas). */
export const text = (max: number) => z.string().max(max);

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
    /** The exam's section this question is sat in (sections.ts); null: the first section, or none. */
    sectionId: z.string().max(64).nullable().default(null),
    /**
     * Reliance calibration (planted-errors.ts): the wrong option or value the assistant may be asked to state
     * when the exam's aiSettings.plantedErrors is on. Null: this question is not eligible. Never sent to a candidate.
     */
    plantedError: text(1000).nullable().default(null),
    // Coding questions graded by tests (coding.ts).
    ...codingQuestionFields,
    // The further types (question-kinds.ts); each field is read only by its own type.
    /** What the candidate is told about the question in practice and in a released result's review. */
    feedback: QuestionFeedbackSchema.default(EMPTY_FEEDBACK),
    /** MCQ and true/false: feedback per option, by the option's index (true/false: [true, false]). */
    optionFeedback: z.array(text(2000)).max(20).default([]),
    /** A passage of the exam (passages.ts) shown beside this question. */
    passageId: z.string().max(64).nullable().default(null),
    essay: EssaySettingsSchema.default(DEFAULT_ESSAY),
    /** Ordering: the items in the right order. */
    items: OrderingItemsSchema.default([]),
    /** Matching: each prompt with its right answer, and answers that match no prompt. */
    pairs: z.array(MatchPairSchema).max(20).default([]),
    distractors: z.array(text(1000)).max(20).default([]),
    /** Fill in the blanks: the text with its gaps (`[[1]]`, `[[2]]`, …) and each gap's key. */
    gapText: text(20000).default(''),
    blanks: z.array(BlankSchema).max(50).default([]),
    /** Numeric and calculated: the units an answer may be given in. */
    units: UnitSettingsSchema.default(DEFAULT_UNITS),
    /** Calculated: the variables, formula and (in an attempt's snapshot only) the candidate's values. */
    calculated: CalculatedSettingsSchema.nullable().default(null),
  })
  .superRefine((q, ctx) => {
    for (const issue of codingIssues(q)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of plantedErrorIssues(q)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of questionKindIssues(q)) ctx.addIssue({ code: 'custom', ...issue });
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
  /** Coding: the languages the candidate chooses from (absent: `language` only), and starter code per language. */
  languages: z.array(CodingLanguageSchema).optional(),
  starterCodes: z.partialRecord(CodingLanguageSchema, z.string()).optional(),
  /** An agentic task: the starter repository's file paths (its contents arrive in the workspace; hidden files never). */
  repositoryFiles: z.array(z.string()).optional(),
  /** The section the question is sat in (sections.ts); null without sections. */
  sectionId: z.string().nullable().optional(),
  /** The exam's passage shown beside this question (PublicExam.passages); null without one. */
  passageId: z.string().nullable().optional(),
  /** Essay: the word limits the counter shows, and whether the editor is formatted. */
  essay: z
    .object({ minWords: z.number().nullable(), maxWords: z.number().nullable(), formatted: z.boolean() })
    .optional(),
  /** Ordering: the items in the order the candidate starts from (never the right order). */
  items: z.array(z.string()).optional(),
  /** Matching: the prompts in the creator's order, and every answer (right ones and distractors) in a shuffled order. */
  prompts: z.array(z.string()).optional(),
  choices: z.array(z.string()).optional(),
  /** Fill in the blanks: the text with its `[[n]]` gaps, and each gap's kind and (drop-down) options. */
  gapText: z.string().optional(),
  gaps: z.array(z.object({ kind: z.enum(['text', 'numeric', 'choice']), options: z.array(z.string()) })).optional(),
  /** Numeric and calculated: the unit symbols an answer may name, and whether one must be named. */
  unitSymbols: z.array(z.string()).optional(),
  unitRequired: z.boolean().optional(),
});
export type PublicQuestion = z.infer<typeof PublicQuestionSchema>;

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
    sectionId: q.sectionId,
    passageId: q.passageId,
    ...(q.type === 'coding' ? codingView(q) : {}),
    ...kindView(q),
  };
}

/**
 * A shuffle fixed by the question's id, so the candidate's page, a reload and the preview agree. Ordering items
 * are never shown in the right order when another order exists: the shuffle is rotated by one if it gives it.
 */
function fixedShuffle(items: readonly string[], questionId: string): string[] {
  const out = shuffled(items, mulberry32(hashSeed(`${questionId}:shown-order`)));
  const same = out.every((item, i) => item === items[i]);
  return same && new Set(items).size > 1 ? [...out.slice(1), out[0]!] : out;
}

/** What a candidate sees of the further types (question-kinds.ts): never a key, a formula or a range. */
function kindView(q: Question): Partial<PublicQuestion> {
  switch (q.type) {
    case 'essay':
      return { essay: { minWords: q.essay.minWords, maxWords: q.essay.maxWords, formatted: q.essay.formatted } };
    case 'ordering':
      return { items: fixedShuffle(q.items, q.id) };
    case 'matching': {
      const answers = [...new Set([...q.pairs.map((p) => p.answer), ...q.distractors])];
      return { prompts: q.pairs.map((p) => p.prompt), choices: fixedShuffle(answers, q.id) };
    }
    case 'fill-blanks':
      return {
        gapText: q.gapText,
        gaps: q.blanks.map((b) => ({ kind: b.kind, options: b.kind === 'choice' ? b.options : [] })),
      };
    case 'numeric':
    case 'calculated':
      return { unitSymbols: q.units.units.map((u) => u.symbol), unitRequired: q.units.required };
    default:
      return {};
  }
}

/** A coding question's starter code, visible tests, hidden test count and limits for the candidate. */
function codingView(
  q: Question,
): Pick<
  PublicQuestion,
  | 'starterCode'
  | 'visibleTests'
  | 'hiddenTestCount'
  | 'limits'
  | 'workspaceFile'
  | 'repositoryFiles'
  | 'languages'
  | 'starterCodes'
> {
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
    ...(allowedLanguages(q).length > 1 ? { languages: allowedLanguages(q), starterCodes: q.starterCodes } : {}),
    ...(q.repository ? { repositoryFiles: q.repository.files.map((f) => f.path) } : {}),
  };
}
