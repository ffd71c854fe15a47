import { z } from 'zod';
import { RESULT_STATUSES } from './grading.ts';

/**
 * GET /api/exams/{examId}/insights (docs/product.md#insights): the psychometrics report of an exam, computed by
 * @exam/psychometrics/report from the submitted attempts.
 *
 * Units: facility, cronbachAlpha and randomGuessScore are fractions 0–1; discriminationIndex,
 * discriminativeEfficiency, effectiveWeight and errorRatio are percent as Moodle reports them;
 * test mean/median/sd/standardError are percent of the maximum score (Moodle shows them so too);
 * raschDifficulty and abilityTheta are logits; ability = 100·Φ(θ); the other *Percent / rawScore /
 * reasoning / copyWriting / aiReference figures are percent 0–100; times are seconds.
 *
 * A figure that cannot be computed is null, and `reasons` holds why under a key naming it:
 * `test.<field>`, `items.<questionIndex>.<field>`, `candidates.<resultId>.<field>`,
 * `topics.<topic>.<field>`, `overall.<field>`, `integrity.<field>`, `rasch`.
 * `explanations` holds a hover text per figure under `cohort.<field>`, `test.<field>`, `item.<field>`,
 * `candidate.<field>`, `topic.<field>` and `integrity.<field>`.
 */
const figure = z.number().nullable();
const count = z.number().int().nonnegative();

export const RANGE_BADGES = ['above', 'in', 'below'] as const;
export const RangeBadgeSchema = z.enum(RANGE_BADGES);
export type RangeBadgeValue = z.infer<typeof RangeBadgeSchema>;

export const InsightsCohortSchema = z.object({
  invited: count,
  started: count,
  submitted: count,
  graded: count,
  pending: count,
});

export const InsightsTestSchema = z.object({
  /** Submitted attempts the statistics are computed over. */
  candidates: count,
  /** Questions, 1 mark each. */
  maxScore: count,
  mean: figure,
  median: figure,
  sd: figure,
  skewness: figure,
  kurtosis: figure,
  cronbachAlpha: figure,
  errorRatio: figure,
  standardError: figure,
});

export const InsightsItemSchema = z.object({
  questionIndex: z.number().int().nonnegative(),
  topic: z.string(),
  type: z.string(),
  /** Candidates with a mark for this question (ungraded manual answers excluded). */
  graded: count,
  /** N: submitted candidates who were given this question (a pool draws it for some of them). */
  drawn: count.optional(),
  facility: figure,
  sd: figure,
  discriminationIndex: figure,
  discriminativeEfficiency: figure,
  effectiveWeight: figure,
  randomGuessScore: z.number(),
  raschDifficulty: figure,
  raschDifficultySe: figure,
  aiReference: figure,
});

export const InsightsCandidateSchema = z.object({
  resultId: z.string(),
  name: z.string(),
  studentId: z.string(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  rank: z.number().int().positive(),
  /** Sum of the question marks as fractions of their points (pending answers count 0 until graded). */
  correct: z.number().nonnegative(),
  /** The result's score exactly as every other screen shows it; results-service adds it to the report. */
  result: z
    .object({ score: z.number(), maxScore: z.number(), percentage: z.number(), status: z.enum(RESULT_STATUSES) })
    .optional(),
  rawScore: figure,
  ability: figure,
  abilityTheta: figure,
  abilitySe: figure,
  reasoning: figure,
  timeSpent: figure,
  copyWriting: figure,
  focusPercent: z.number(),
  blockedPastes: count,
  /**
   * Assistant replies to this candidate that the "stop solutions" guardrail stopped because they were about
   * to give an answer key away (llm-gateway's transcript); null when the transcripts could not be read.
   */
  answersWithheld: figure.optional(),
  badges: z.object({
    rawScore: RangeBadgeSchema.nullable(),
    ability: RangeBadgeSchema.nullable(),
    reasoning: RangeBadgeSchema.nullable(),
  }),
});

export const InsightsTopicSchema = z.object({
  topic: z.string(),
  questions: count,
  rawScorePercent: figure,
  abilityPercent: figure,
  reasoningPercent: figure,
});

export const InsightsOverallSchema = InsightsTopicSchema.omit({ topic: true });

export const InsightsIntegritySchema = z.object({
  avgTimeToCompleteSeconds: figure,
  focusPercent: figure,
  externalPasteBlocked: count,
  copyWritingPercent: figure,
  /** Replies stopped by the guardrail, over all candidates (null without transcripts). */
  answersWithheld: figure.optional(),
});

export const InsightsRaschSchema = z.object({
  converged: z.boolean(),
  iterations: count,
  logLikelihood: figure,
  quadraturePoints: count,
});

export const InsightsReportSchema = z.object({
  cohort: InsightsCohortSchema,
  test: InsightsTestSchema,
  items: z.array(InsightsItemSchema),
  candidates: z.array(InsightsCandidateSchema),
  topics: z.array(InsightsTopicSchema),
  overall: InsightsOverallSchema,
  integrity: InsightsIntegritySchema,
  rasch: InsightsRaschSchema,
  /** The Reasoning formula, for its tooltip. */
  reasoningFormula: z.string(),
  explanations: z.record(z.string(), z.string()),
  reasons: z.record(z.string(), z.string()),
});
export type InsightsReport = z.infer<typeof InsightsReportSchema>;
export type InsightsItem = z.infer<typeof InsightsItemSchema>;
export type InsightsCandidate = z.infer<typeof InsightsCandidateSchema>;
export type InsightsTopic = z.infer<typeof InsightsTopicSchema>;
