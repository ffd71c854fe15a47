import { z } from 'zod';
import { RepositoryFileSchema, RunLanguageSchema, TestGradingSchema } from './coding.ts';
import { CodingLanguageSchema, RubricSchema, QuestionTypeSchema } from './question.ts';
import { RESULT_STATUSES } from './grading.ts';
import { WorkspaceFilesSchema } from './internal.ts';
import { LmsSyncSchema } from './lti-ags.ts';

/** Submitted results as creators read and grade them (docs/product.md#results-and-grading). */

export const ResultSummarySchema = z.object({
  id: z.string(),
  examId: z.string(),
  examTitle: z.string(),
  userName: z.string(),
  studentId: z.string(),
  /**
   * Points earned, points possible and score / maxScore × 100 (unrounded), from the one computation in
   * @exam/domain/grading. While `status` is 'pending' the score counts only what is marked so far.
   */
  score: z.number(),
  maxScore: z.number(),
  percentage: z.number(),
  status: z.enum(RESULT_STATUSES),
  /** Questions that still wait for a grader. */
  pendingCount: z.number().int(),
  totalQuestions: z.number().int(),
  answeredCount: z.number().int(),
  /** status is not 'pending'. */
  isGraded: z.boolean(),
  releasedAt: z.string().nullable(),
  gradedAt: z.string().nullable(),
  /** Seconds from start to submission. */
  timeSpent: z.number().int(),
  startedAt: z.string(),
  completedAt: z.string(),
  /** Which of the candidate's attempts this is (1 = first), and whether it is the one the exam's keepGrade counts. */
  attemptNo: z.number().int(),
  kept: z.boolean(),
  /** An attempt at a practice exam (practice.ts): listed for the creator, never counted. Absent: a real exam's. */
  practice: z.boolean().optional(),
  /** The score passback to the LMS, for results of attempts launched from one (once released). */
  lmsSync: LmsSyncSchema.optional(),
});
export type ResultSummary = z.infer<typeof ResultSummarySchema>;

/** GET /api/results pages: this many results unless `limit` says otherwise, never more than the max. */
export const RESULTS_PAGE_DEFAULT = 50;
export const RESULTS_PAGE_MAX = 200;

/**
 * GET /api/results query. Results come newest submission first (ties by id); `cursor` is the opaque
 * `nextCursor` of the previous page. The filters narrow the list the way the creator app's views need.
 */
export const ListResultsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(RESULTS_PAGE_MAX).default(RESULTS_PAGE_DEFAULT),
  cursor: z.string().min(1).max(500).optional(),
  examId: z.string().min(1).max(64).optional(),
  /** Exact candidate ID (the grader's links may name a candidate by it). */
  studentId: z.string().min(1).max(100).optional(),
  /** 'true': fully graded only; 'false': waiting for a grader. */
  graded: z.enum(['true', 'false']).optional(),
  /** Case-insensitive text in the candidate's name, candidate ID or the exam title. */
  search: z.string().max(200).optional(),
});
export type ListResultsQuery = z.infer<typeof ListResultsQuerySchema>;

/**
 * GET /api/exams/{examId}/results.csv: `full` (every question's points and the integrity counts) or
 * `gradebook` (one row per candidate: identity, each question's points under its title, total, maximum,
 * percentage, status, for a spreadsheet or an LMS gradebook import). Both head each question's column by its
 * title in the exam's order. `bom=true` starts the file with a UTF-8 byte-order mark, which Excel needs to read
 * the file as UTF-8 (accents) when it is opened by double-click; LMS imports and scripts take it without (default).
 */
export const RESULTS_CSV_FORMATS = ['full', 'gradebook'] as const;
export const ResultsCsvQuerySchema = z.object({
  format: z.enum(RESULTS_CSV_FORMATS).default('full'),
  bom: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
export type ResultsCsvFormat = (typeof RESULTS_CSV_FORMATS)[number];

export const ResultListSchema = z.object({
  results: z.array(ResultSummarySchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ResultList = z.infer<typeof ResultListSchema>;

export const NO_ANSWER = 'No answer provided';

export const QuestionAnswerSchema = z.object({
  questionIndex: z.number().int(),
  /**
   * The question's index in the exam as the creator wrote it (questionIndex is the candidate's, which differs on a
   * shuffled, pooled or sectioned exam). A creator's result detail always carries it and lists questions by it.
   */
  examQuestionIndex: z.number().int().optional(),
  /** The question's title. */
  question: z.string(),
  content: z.string(),
  questionType: QuestionTypeSchema,
  options: z.array(z.string()),
  /** The key as people read it: the correct option(s) or the accepted answers joined by ' | '. Creators only. */
  correctAnswer: z.string().nullable(),
  multipleAnswers: z.boolean(),
  /** MCQ with multiple answers: the options ticked. */
  choices: z.array(z.string()),
  answer: z.string(),
  /**
   * The answer exactly as saved (the encoded form `answer` is written from): JSON for ordering, matching, fill in
   * the blanks and an MCQ with multiple answers (@exam/domain/question-kinds, grading decodeChoices), the text
   * otherwise; null when unanswered. Screens decode it rather than read `answer` back. Absent from older servers.
   */
  answerValue: z.string().nullable().optional(),
  /** null while the question waits for a grader. */
  points: z.number().nullable(),
  maxPoints: z.number(),
  /** The key decided the points; false when a grader marked it (or must). */
  autoScored: z.boolean(),
  /**
   * Scored 0 because the candidate left it unanswered (@exam/domain/unanswered): automatically under the exam's
   * 'zero' policy, or by the "score unanswered questions 0" bulk action. A grader may still mark it. Absent: no.
   */
  unanswered: z.boolean().optional(),
  isGraded: z.boolean(),
  feedback: z.string(),
  /** Rubric criteria the grader ticked, and the rubric itself when the question has one. */
  criteria: z.array(z.string()),
  rubric: RubricSchema.nullable(),
  file: z.object({ fileName: z.string(), size: z.number().int() }).optional(),
  /** Coding graded by tests: the run's state and a verdict per test (hidden ones included, for creators). */
  tests: TestGradingSchema.optional(),
  /**
   * A coding question with a language: the one the candidate answered in, their choice when the question offers
   * several (the attempt's latest `language-chosen` event), else the question's language. Creators only.
   */
  language: RunLanguageSchema.optional(),
  /**
   * An agentic task (coding.ts `repository`): its starter files as the workspace got them, so the grader sees the
   * diff from them to the collected workspace. Creators only; hidden files are not listed.
   */
  starterFiles: z.array(RepositoryFileSchema).optional(),
  /** With starterFiles: the folder of the workspace the repository sits in ('' the root, else `q<N>/`). */
  repositoryRoot: z.string().optional(),
  /**
   * Fill in the blanks, matching and ordering: right or wrong per gap, prompt or neighbouring pair
   * (@exam/domain/grading answerParts), so the grader sees which parts earned the partial credit.
   */
  parts: z.array(z.boolean()).nullable().optional(),
  /** A calculated question: the values this candidate was given (the key is in correctAnswer). */
  calculatedValues: z.record(z.string(), z.number()).nullable().optional(),
  /** The shared passage shown beside the question, by title (its text is on the exam). */
  passageTitle: z.string().nullable().optional(),
});
export type QuestionAnswer = z.infer<typeof QuestionAnswerSchema>;

export const ResultEventSchema = z.object({
  type: z.string(),
  /** Server time the event was recorded. */
  at: z.string(),
  clientAt: z.string().nullable(),
  questionIndex: z.number().int().nullable(),
  detail: z.string().nullable(),
});
export type ResultEvent = z.infer<typeof ResultEventSchema>;

/** One change of a grade, kept forever (append-only). */
export const GradeHistoryEntrySchema = z.object({
  at: z.string(),
  /** The creator's e-mail, or 'regrade' / 'system'. */
  by: z.string(),
  /** `tests`: a coding question's test run finished and set its points (by 'runner'). */
  kind: z.enum(['grade', 'regrade', 'release', 'unrelease', 'tests']),
  /** null for changes of the whole result (release). */
  questionIndex: z.number().int().nullable(),
  before: z.object({ points: z.number().nullable(), feedback: z.string() }).nullable(),
  after: z.object({ points: z.number().nullable(), feedback: z.string() }).nullable(),
  /** Why a grader overrode the points the tests gave (required for that override). */
  reason: z.string().optional(),
  /** The mark took an AI suggestion: "suggested by AI, accepted (or edited) by" `by`. */
  suggestion: z.enum(['accepted', 'edited']).optional(),
});
export type GradeHistoryEntry = z.infer<typeof GradeHistoryEntrySchema>;

export const ResultDetailSchema = ResultSummarySchema.extend({
  attemptId: z.string(),
  questionAnswers: z.array(QuestionAnswerSchema),
  /** The newest events (at most RESULT_EVENTS_MAX), oldest of them first. */
  events: z.array(ResultEventSchema),
  /** How many events of each type the attempt stored, all of them, not only those listed. */
  eventSummary: z.record(z.string(), z.number().int()).default({}),
  /** True when `events` lists only the newest of the stored events. */
  eventsTruncated: z.boolean().default(false),
  workspace_files: WorkspaceFilesSchema,
  history: z.array(GradeHistoryEntrySchema),
});
export type ResultDetail = z.infer<typeof ResultDetailSchema>;

/**
 * A grader's mark of one question. `points` between 0 and the question's points (two decimals); with a
 * rubric, `criteria` are the ticked criterion ids and `points` must equal their sum. `points: null` removes
 * the grader's mark (the key, or pending, applies again): an explicit action, never a toggle.
 */
export const GradingEntrySchema = z.object({
  questionIndex: z.number().int().min(0).max(499),
  points: z.number().min(0).max(1000).nullable(),
  feedback: z.string().max(20000).default(''),
  criteria: z.array(z.string().max(64)).max(30).default([]),
  /** Required when the mark overrides points a question's tests gave; kept in the grade history. */
  reason: z.string().trim().max(2000).optional(),
});
export type GradingEntry = z.infer<typeof GradingEntrySchema>;

export const GradeResultSchema = z.object({ grading: z.array(GradingEntrySchema).min(1).max(500) });
export type GradeResult = z.infer<typeof GradeResultSchema>;

export const ExamResultsSummarySchema = z.object({
  exams: z.array(
    z.object({
      examId: z.string(),
      examTitle: z.string(),
      /** Candidates who started (the dashboard's 'Invites Sent'). */
      started: z.number().int(),
      submitted: z.number().int(),
      graded: z.number().int(),
      /** Mean percentage of the graded results (unrounded); null when none is graded. */
      avgScore: z.number().nullable(),
      /** Results still waiting for a grader. */
      pending: z.number().int(),
    }),
  ),
});
export type ExamResultsSummary = z.infer<typeof ExamResultsSummarySchema>;

export const ResultIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const ResultFileParamsSchema = ResultIdParamsSchema.extend({
  questionIndex: z.coerce.number().int().min(0).max(499),
});

/** POST /api/exams/{id}/regrade?dryRun=true|false: what re-scoring every result with the exam's current keys does. */
export const RegradeQuerySchema = z.object({ dryRun: z.enum(['true', 'false']).default('true') });
export const RegradeReportSchema = z.object({
  dryRun: z.boolean(),
  results: z.number().int(),
  /** Test-graded answers whose tests changed: run again (pending until their verdicts land). */
  testsRerun: z.number().int().default(0),
  changed: z.number().int(),
  up: z.number().int(),
  down: z.number().int(),
  questions: z.array(
    z.object({
      questionIndex: z.number().int(),
      title: z.string(),
      changed: z.number().int(),
      up: z.number().int(),
      down: z.number().int(),
    }),
  ),
  changes: z.array(
    z.object({
      resultId: z.string(),
      userName: z.string(),
      studentId: z.string(),
      before: z.number(),
      after: z.number(),
    }),
  ),
});
export type RegradeReport = z.infer<typeof RegradeReportSchema>;

/** POST /api/results/{id}/release body, and /api/exams/{id}/release for every graded result of an exam. */
export const ReleaseSchema = z.object({ released: z.boolean() });
/** POST /api/exams/{id}/release answer: results whose release changed, and results skipped as still pending. */
export const ExamReleaseReportSchema = z.object({
  released: z.boolean(),
  changed: z.number().int(),
  pending: z.number().int(),
});
export type ExamReleaseReport = z.infer<typeof ExamReleaseReportSchema>;

/** One rubric criterion as the candidate reads it: what it asks for, its worth, and the points the grader gave. */
export const CandidateCriterionSchema = z.object({
  description: z.string(),
  maxPoints: z.number(),
  points: z.number(),
});
export type CandidateCriterion = z.infer<typeof CandidateCriterionSchema>;

/**
 * The parts an answer was scored in, counted, never which part is right (that would be the key): gaps of a
 * fill-in-the-blanks question, prompts of a matching question, neighbouring pairs of an ordering question kept in
 * order, tests passed of a coding question (hidden tests counted, never shown). `rule` says whether the points
 * follow the share (`partial`) or need every part (`all-or-nothing`); tests always give their own points.
 */
export const PARTIAL_CREDIT_KINDS = ['gaps', 'pairs', 'order', 'tests'] as const;
export const PartialCreditSchema = z.object({
  kind: z.enum(PARTIAL_CREDIT_KINDS),
  right: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  rule: z.enum(['partial', 'all-or-nothing']),
});
export type PartialCredit = z.infer<typeof PartialCreditSchema>;

/**
 * POST /api/results/bulk: one action on the creator's chosen results, in one transaction (all or nothing).
 * `score-unanswered` gives 0, as a grader's mark kept in the history, to every question still awaiting grading that
 * the candidate left unanswered (@exam/domain/unanswered): for exams whose policy leaves them to a grader, or
 * results submitted before the policy existed. `release` and `unrelease` show or hide graded results; pending ones
 * are counted and left.
 */
export const BULK_RESULT_ACTIONS = ['score-unanswered', 'release', 'unrelease'] as const;
export type BulkResultAction = (typeof BULK_RESULT_ACTIONS)[number];
/** The most results one bulk request may name (a page of the results list holds fewer). */
export const MAX_BULK_RESULTS = 500;
export const BulkResultsSchema = z.object({
  action: z.enum(BULK_RESULT_ACTIONS),
  resultIds: z
    .array(z.string().min(1).max(64))
    .min(1, 'Choose at least one result')
    .max(MAX_BULK_RESULTS, `At most ${MAX_BULK_RESULTS} results at once`),
});
export type BulkResults = z.infer<typeof BulkResultsSchema>;
export const BulkResultsReportSchema = z.object({
  action: z.enum(BULK_RESULT_ACTIONS),
  /** Distinct results named. */
  results: z.number().int(),
  /** Results the action changed. */
  changed: z.number().int(),
  /** Results still awaiting grading afterwards (a release leaves them unreleased). */
  pending: z.number().int(),
  /** score-unanswered: the questions it scored 0, over all results. */
  questionsScored: z.number().int(),
});
export type BulkResultsReport = z.infer<typeof BulkResultsReportSchema>;

/** GET /api/attempts/{id}/result: the candidate's own released result; keys only if the exam shows them. */
export const CandidateResultSchema = z.object({
  examTitle: z.string(),
  userName: z.string(),
  score: z.number(),
  maxScore: z.number(),
  percentage: z.number(),
  status: z.enum(RESULT_STATUSES),
  releasedAt: z.string().nullable(),
  questions: z.array(
    z.object({
      title: z.string(),
      questionType: QuestionTypeSchema,
      answer: z.string(),
      points: z.number().nullable(),
      maxPoints: z.number(),
      feedback: z.string(),
      correctAnswer: z.string().nullable(),
      /** Coding graded by tests: outcomes of every test; data only for the visible ones (candidateReport). */
      tests: TestGradingSchema.optional(),
      /**
       * Reliance calibration (planted-errors.ts): the error the assistant stated on purpose in the candidate's
       * conversation about this question (a verified planted turn), told to them only with their result.
       */
      plantedError: z.string().optional(),
      /** The question's text as the candidate saw it (a calculated question's with their values). */
      content: z.string().optional(),
      /** Coding: the language the answer is written in (shown in a monospace block). */
      language: CodingLanguageSchema.optional(),
      /** The exam's passage shown beside this question (CandidateResult.passages); absent without one. */
      passageId: z.string().optional(),
      /** Who decided the points: the answer key, the tests, or a grader; absent while none has. */
      markedBy: z.enum(['key', 'tests', 'grader']).optional(),
      /** A question marked with a rubric: every criterion with the points the grader gave for it. */
      criteria: z.array(CandidateCriterionSchema).optional(),
      /** Why the points are what they are, for answers scored in parts (candidatePartialCredit). */
      partialCredit: PartialCreditSchema.optional(),
    }),
  ),
  /** True when llm-gateway could not be asked what the assistant planted: the result is shown without it. */
  plantedUnavailable: z.boolean().optional(),
  /** The passages the candidate's questions refer to, as they were when the attempt started. */
  passages: z.array(z.object({ id: z.string(), title: z.string(), content: z.string() })).optional(),
});
export type CandidateResult = z.infer<typeof CandidateResultSchema>;

/** POST /api/attempts/{id}/questions/{questionIndex}/test-runs: the inline editor's code to run against the visible tests. */
export const TestRunBodySchema = z.object({
  code: z.string().max(200_000),
  /** The language the candidate chose, for a question that lets them (coding.ts allowedLanguages). */
  language: RunLanguageSchema.optional(),
});
export type TestRunBody = z.infer<typeof TestRunBodySchema>;
export const TestRunParamsSchema = z.object({
  attemptId: z.string().min(1).max(64),
  runId: z.string().min(1).max(64),
});
/** How long a read of a run may wait for it to finish (milliseconds). */
export const RunWaitQuerySchema = z.object({ waitMs: z.coerce.number().int().min(0).max(25_000).default(0) });
