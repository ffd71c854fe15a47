import { z } from 'zod';
import { CandidateCollaborationSchema, CohortCollaborationSchema } from './collaboration.ts';
import { RESULT_STATUSES } from './grading.ts';
import { QuestionAgreementSchema } from './question-grading.ts';

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
 * `topics.<topic>.<field>`, `overall.<field>`, `integrity.<field>`, `rasch`, `twoPl`. The chart data's:
 * `items.<i>.aiUplift`, `topics.<topic>.aiUplift` and `overall.aiUplift` (no difference: the uplift's caution,
 * or that the transcripts could not be read), `items.<i>.scoreGroups` (no abilities), `items.<i>.time` (no
 * question-view events for it) and `aiUse` (no buckets).
 * `explanations` holds a hover text per figure under `cohort.<field>`, `test.<field>`, `item.<field>`,
 * `candidate.<field>`, `topic.<field>`, `overall.<field>`, `integrity.<field>` and `model.<field>` (the chart
 * data under `item.aiUplift`, `item.scoreGroups`, `item.time`, `topic.aiUplift`, `overall.aiUplift` and
 * `aiUse`), and what each item flag means and what to do about it under `flag.<flag>`.
 *
 * Models: every item has a Rasch fit (discrimination 1) and a 2PL fit (`twoPl`: discrimination a and
 * difficulty b on the logistic metric, P = σ(a(θ − b)), no 1.7 constant; θ ~ N(0, 1)). `model` says which one
 * the abilities (candidates, topics, overall) come from: the creator's choice (`?model=rasch|2pl`) or, by
 * default, a likelihood-ratio test of one common discrimination against one per question.
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

export const ITEM_FLAGS = ['noisy', 'predictable', 'negative-discrimination', 'weak-discrimination'] as const;
export const ItemFlagSchema = z.enum(ITEM_FLAGS);
export type ItemFlagValue = z.infer<typeof ItemFlagSchema>;

/**
 * A question's 2PL parameters with their standard errors; the whole object is null when the question has no
 * 2PL estimate (reason under `items.<i>.twoPl`), the difficulty alone when its discrimination is about 0
 * (reason under `items.<i>.twoPl.difficulty`), the standard errors when the data cannot give them
 * (`items.<i>.twoPl.se`).
 */
export const InsightsTwoPlItemSchema = z.object({
  discrimination: figure,
  difficulty: figure,
  discriminationSe: figure,
  difficultySe: figure,
});

/** Rasch infit/outfit mean squares (expected 1) and what the item's statistics suggest checking. */
export const InsightsItemFitSchema = z.object({
  infit: figure,
  outfit: figure,
  flags: z.array(ItemFlagSchema),
});

export const INSIGHTS_MODEL_REQUESTS = ['auto', 'rasch', '2pl'] as const;
export const InsightsModelRequestSchema = z.enum(INSIGHTS_MODEL_REQUESTS);
export type InsightsModelRequest = z.infer<typeof InsightsModelRequestSchema>;

/** Query of GET /api/exams/{examId}/insights: which model the abilities come from (default: chosen by test). */
export const InsightsQuerySchema = z.object({ model: InsightsModelRequestSchema.default('auto') });

export const InsightsModelSchema = z.object({
  requested: InsightsModelRequestSchema,
  chosen: z.enum(['rasch', '2pl']),
  /** 2PL against one common discrimination: G² statistic, degrees of freedom, p-value; null when not computable. */
  lrt: z.object({ statistic: z.number(), df: count, p: z.number() }).nullable(),
  /** Significance level of the automatic choice. */
  alpha: z.number(),
  reason: z.string(),
  twoPl: z.object({
    converged: z.boolean(),
    iterations: count,
    logLikelihood: figure,
    quadraturePoints: count,
  }),
});

/**
 * Facility among candidates who asked the assistant about a question (or topic, or at all for the whole
 * exam) against those who did not: shares 0–1, their difference with a 95 % interval (Newcombe's hybrid
 * score interval for a difference of two independent proportions, method 10 of Newcombe 1998), the counts,
 * and a caution when a group is too small to read. Facility here is the mean mark (0–1) of each group.
 */
export const InsightsUpliftSchema = z.object({
  asked: count,
  notAsked: count,
  askedFacility: figure,
  notAskedFacility: figure,
  difference: figure,
  ciLow: figure,
  ciHigh: figure,
  /** Why the comparison should be read with care (a group too small, nobody asked); null when it reads plainly. */
  caution: z.string().nullable(),
});
export type InsightsUplift = z.infer<typeof InsightsUpliftSchema>;

/**
 * One ability group of an item characteristic curve: the candidates who drew the item, split into groups by
 * ability (θ of the chosen model, logits), with the group's mean θ, its size and the share of them right
 * (mark ≥ ½, as the Rasch and 2PL fits count it).
 */
export const InsightsScoreGroupSchema = z.object({ theta: z.number(), n: count, observed: z.number() });

/** Seconds candidates spent with a question on screen (from the exam page's question-view events). */
export const InsightsItemTimeSchema = z.object({ medianSeconds: figure, meanSeconds: figure, candidates: count });

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
  /** Always sent by results-service; optional only so older fixtures still parse. */
  twoPl: InsightsTwoPlItemSchema.nullable().optional(),
  fit: InsightsItemFitSchema.optional(),
  aiReference: figure,
  /** Always sent by results-service; optional only so older fixtures still parse. */
  aiUplift: InsightsUpliftSchema.optional(),
  /** Observed proportions right by ability group, for the item characteristic curve; empty without abilities. */
  scoreGroups: z.array(InsightsScoreGroupSchema).optional(),
  time: InsightsItemTimeSchema.optional(),
});

/** One ability on the common logit scale (aided-ability.ts): EAP and posterior SD; null with a reason. */
export const ThetaSeSchema = z.object({ theta: figure, se: figure, reason: z.string().optional() });

/**
 * A candidate's ability with and without the assistant (issue 33): θ on each set, and the gap θ_A − θ_U with its
 * 95% interval; `flag` when the gap is far outside the cohort's (Benjamini–Hochberg at 5%, aided-gap.ts).
 */
export const CandidateAidedAbilitySchema = z.object({
  aided: ThetaSeSchema,
  unaided: ThetaSeSchema,
  gap: z.object({
    estimate: figure,
    low: figure,
    high: figure,
    se: figure,
    flag: z.enum(['above', 'below']).nullable(),
    reason: z.string().optional(),
  }),
});
export type CandidateAidedAbility = z.infer<typeof CandidateAidedAbilitySchema>;

/** A reliance ratio with the counts it rests on (@exam/psychometrics reliance.ts). */
export const RelianceRatioSchema = z.object({
  value: figure,
  numerator: count,
  denominator: count,
  reason: z.string().optional(),
});

/** A candidate's reliance on the assistant (issue 33): RAIR, RSR and planted-error adoption, with their counts. */
export const CandidateRelianceSchema = z.object({
  rair: RelianceRatioSchema,
  rsr: RelianceRatioSchema,
  errorAdoption: RelianceRatioSchema,
  cases: count,
  /** Verified planted turns this candidate received, and on which question (the exam's index, as graders number it). */
  planted: z.array(z.object({ questionIndex: z.number().int(), error: z.string(), adopted: z.boolean() })),
});
export type CandidateReliance = z.infer<typeof CandidateRelianceSchema>;

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
  /** The IRT ability as a percentage (what the column "Ability" shows); `ability` is the aided/unaided pair. */
  abilityScore: figure,
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
  /** Aided and unaided ability; null when the exam has no aided/unaided contrast (sections.ts abilitySets). */
  ability: CandidateAidedAbilitySchema.nullable(),
  /** Null when the exam has no planted errors and no keyed questions the assistant was asked about. */
  reliance: CandidateRelianceSchema.nullable(),
  /** The collaboration profile's levels; null when the candidate never used the assistant. */
  collaboration: CandidateCollaborationSchema.nullable(),
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

/** The exam's AI uplift: over the whole exam (asked the assistant anything) and per topic. */
export const InsightsAiUpliftSchema = z.object({
  overall: InsightsUpliftSchema,
  topics: z.array(InsightsUpliftSchema.extend({ topic: z.string() })),
});

/**
 * Assistant use over the exam's duration: candidates' questions to the assistant by time since each one's
 * start, in buckets of bucketSeconds (`from` is the bucket's start in seconds).
 */
export const InsightsAiUseSchema = z.object({
  bucketSeconds: z.number().int().positive(),
  buckets: z.array(z.object({ from: z.number().int().nonnegative(), messages: count, candidates: count })),
});

/** The exam's aided/unaided ability fit (issue 33): whether it could be made, and the cohort's distribution. */
export const InsightsAidedAbilitySchema = z.object({
  available: z.boolean(),
  reason: z.string().nullable(),
  items: z.object({ aided: count, unaided: count }),
  /** The fitted latent distribution (logits, each set's mean difficulty 0). */
  population: z
    .object({
      aided: z.object({ mean: z.number(), sd: z.number() }),
      unaided: z.object({ mean: z.number(), sd: z.number() }),
      correlation: z.number(),
    })
    .nullable(),
  /** The candidates' gaps: distribution, reliability and how many are flagged each way. */
  gap: z
    .object({
      mean: figure,
      sd: figure,
      quantiles: z
        .object({ p5: z.number(), p25: z.number(), p50: z.number(), p75: z.number(), p95: z.number() })
        .nullable(),
      reliability: figure,
      flagged: z.object({ above: count, below: count }),
    })
    .nullable(),
  converged: z.boolean(),
});

/** RAIR, RSR and error adoption over the exam: pooled over cases and averaged over candidates. */
export const InsightsRelianceSchema = z.object({
  plantedErrors: z.boolean(),
  pooled: z.object({
    rair: RelianceRatioSchema,
    rsr: RelianceRatioSchema,
    errorAdoption: RelianceRatioSchema,
    cases: count,
  }),
  meanOfCandidates: z.object({
    rair: z.object({ value: figure, candidates: count, reason: z.string().optional() }),
    rsr: z.object({ value: figure, candidates: count, reason: z.string().optional() }),
    errorAdoption: z.object({ value: figure, candidates: count, reason: z.string().optional() }),
  }),
  /** Verified planted turns over the exam, per question (the exam's numbering). */
  plantedByQuestion: z.array(z.object({ questionIndex: z.number().int(), turns: count, adopted: count })),
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
  /** Always sent by results-service; optional only so older fixtures still parse. */
  model: InsightsModelSchema.optional(),
  /** Always sent by results-service; optional only so older fixtures still parse. */
  aiUplift: InsightsAiUpliftSchema.optional(),
  aiUse: InsightsAiUseSchema.optional(),
  /**
   * How far AI-suggested marks agree with the graders, per question (the exam's numbering) with at least one
   * suggestion: the figures of GET /api/exams/{examId}/grading/agreement. Always sent by results-service; optional
   * only so older fixtures still parse.
   */
  gradingAgreement: z.array(QuestionAgreementSchema).optional(),
  /** Issue 33. Always sent by results-service; optional only so older fixtures still parse. */
  aidedAbility: InsightsAidedAbilitySchema.optional(),
  reliance: InsightsRelianceSchema.nullable().optional(),
  collaboration: CohortCollaborationSchema.nullable().optional(),
  /** The Reasoning formula, for its tooltip. */
  reasoningFormula: z.string(),
  explanations: z.record(z.string(), z.string()),
  reasons: z.record(z.string(), z.string()),
});
export type InsightsReport = z.infer<typeof InsightsReportSchema>;
export type InsightsItem = z.infer<typeof InsightsItemSchema>;
export type InsightsCandidate = z.infer<typeof InsightsCandidateSchema>;
export type InsightsTopic = z.infer<typeof InsightsTopicSchema>;
