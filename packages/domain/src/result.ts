import { z } from 'zod';
import { QuestionTypeSchema } from './exam.ts';
import { WorkspaceFileSchema } from './internal.ts';

/** Submitted results as creators read and grade them (docs/product.md#results-and-grading). */

export const ResultSummarySchema = z.object({
  id: z.string(),
  examId: z.string(),
  examTitle: z.string(),
  userName: z.string(),
  studentId: z.string(),
  /** Rounded percentage of questions graded correct; null until every question is graded. */
  score: z.number().int().min(0).max(100).nullable(),
  correctCount: z.number().int(),
  gradedCount: z.number().int(),
  totalQuestions: z.number().int(),
  answeredCount: z.number().int(),
  isGraded: z.boolean(),
  gradedAt: z.string().nullable(),
  /** Seconds from start to submission. */
  timeSpent: z.number().int(),
  startedAt: z.string(),
  completedAt: z.string(),
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

export const ResultListSchema = z.object({
  results: z.array(ResultSummarySchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ResultList = z.infer<typeof ResultListSchema>;

export const NO_ANSWER = 'No answer provided';

export const QuestionAnswerSchema = z.object({
  questionIndex: z.number().int(),
  /** The question's title. */
  question: z.string(),
  content: z.string(),
  questionType: QuestionTypeSchema,
  options: z.array(z.string()),
  /** MCQ: the correct option; short answer: the accepted answers joined by ' | '. Creators only. */
  correctAnswer: z.string().nullable(),
  answer: z.string(),
  isCorrect: z.boolean().nullable(),
  isGraded: z.boolean(),
  feedback: z.string(),
  file: z.object({ fileName: z.string(), size: z.number().int() }).optional(),
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

export const ResultDetailSchema = ResultSummarySchema.extend({
  attemptId: z.string(),
  questionAnswers: z.array(QuestionAnswerSchema),
  events: z.array(ResultEventSchema),
  workspace_files: z.record(z.string(), WorkspaceFileSchema),
});
export type ResultDetail = z.infer<typeof ResultDetailSchema>;

export const GradingEntrySchema = z.object({
  questionIndex: z.number().int().min(0).max(499),
  isGraded: z.boolean(),
  /** Ignored (stored as null) when isGraded is false. */
  isCorrect: z.boolean().nullable().optional(),
  feedback: z.string().max(20000).default(''),
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
      /** Mean of graded scores to one decimal; null when none is graded. */
      avgScore: z.number().nullable(),
    }),
  ),
});
export type ExamResultsSummary = z.infer<typeof ExamResultsSummarySchema>;

export const ResultIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const ResultFileParamsSchema = ResultIdParamsSchema.extend({
  questionIndex: z.coerce.number().int().min(0).max(499),
});

/** Rounded percentage of correct answers; 0 for an exam without questions . */
export function scorePercent(correct: number, total: number): number {
  return total === 0 ? 0 : Math.round((correct / total) * 100);
}
