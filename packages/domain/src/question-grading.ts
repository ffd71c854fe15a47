import { z } from 'zod';
import { sumPoints } from './grading.ts';
import { QuestionTypeSchema, RubricSchema } from './question.ts';

/**
 * Grading by question (docs/product.md#grading-by-question): every candidate's answer to one question of an exam,
 * its answer groups, marks given to many answers at once, AI-suggested marks a grader accepts or edits, and how
 * far the suggestions agree with the graders. Every route here numbers questions as the exam does
 * (`questionIndex` is the question's place in the exam as its creator wrote it, never a candidate's shuffled
 * place), and answers only to the exam's owner (anyone else: 404, as if the exam did not exist).
 */

export const QuestionGradingParamsSchema = z.object({
  examId: z.string().min(1).max(64),
  questionIndex: z.coerce.number().int().min(0).max(499),
});
export type QuestionGradingParams = z.infer<typeof QuestionGradingParamsSchema>;

export const ResultQuestionParamsSchema = z.object({
  resultId: z.string().min(1).max(64),
  questionIndex: z.coerce.number().int().min(0).max(499),
});

// ---------------------------------------------------------------------------------------------------------------
// AI-suggested marks

/** How many times a suggestion is sampled by default; samples that disagree flag the answer as uncertain. */
export const SUGGESTION_SAMPLES_DEFAULT = 3;
export const SUGGESTION_SAMPLES_MAX = 5;
/** A rationale longer than this is cut (the model is asked for two or three sentences). */
export const SUGGESTION_RATIONALE_MAX = 1200;

/**
 * One sample as the model must return it (the structured output each provider is asked for, and the zod
 * schema its reply is validated with). `quote` is a short passage of the answer the rationale rests on; a
 * quote that does not occur in the answer is dropped by the server, never shown as the candidate's words.
 */
export const SuggestionSampleSchema = z.object({
  points: z.number().min(0).max(1000),
  /** Points per rubric criterion, by the criterion's id; empty for a question without a rubric. */
  rubric: z.array(z.object({ criterionId: z.string().max(64), points: z.number().min(0).max(1000) })).max(30),
  rationale: z.string().max(4000),
  quote: z.string().max(1000),
});
export type SuggestionSample = z.infer<typeof SuggestionSampleSchema>;

export const GradingSuggestionSchema = z.object({
  id: z.string(),
  resultId: z.string(),
  questionIndex: z.number().int(),
  points: z.number(),
  /** Points per rubric criterion, for every criterion of the question's rubric (empty without one). */
  rubric: z.array(z.object({ criterionId: z.string(), points: z.number() })),
  rationale: z.string(),
  /** A passage of the answer the rationale rests on; '' when the model quoted nothing found in the answer. */
  quote: z.string(),
  /** The samples disagreed (their points or rubric differ): a human should look at this answer first. */
  uncertain: z.boolean(),
  /** Each sample's points, in the order they came back. */
  samplePoints: z.array(z.number()),
  provider: z.string(),
  model: z.string(),
  createdAt: z.string(),
  /** False once the answer changed after the suggestion was made (a regrade, a new attempt's answer). */
  current: z.boolean(),
});
export type GradingSuggestion = z.infer<typeof GradingSuggestionSchema>;

/**
 * The samples of one suggestion made into one: the median of the samples' points (the lower middle one for an
 * even count, so a tie never invents a mark nobody gave), each rubric criterion's median likewise, and the
 * rationale and quote of the first sample whose points equal that median. Uncertain when any two samples give
 * different points or different points for a criterion.
 */
export function combineSamples(
  samples: readonly SuggestionSample[],
  maxPoints: number,
  criteria: ReadonlyArray<{ id: string; points: number }>,
): Pick<GradingSuggestion, 'points' | 'rubric' | 'rationale' | 'quote' | 'uncertain' | 'samplePoints'> {
  if (samples.length === 0) throw new Error('combineSamples needs at least one sample');
  const clamp = (value: number, max: number) => Math.min(max, Math.max(0, Math.round(value * 100) / 100));
  const lowerMedian = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const rubric = criteria.map((criterion) => ({
    criterionId: criterion.id,
    points: clamp(
      lowerMedian(samples.map((s) => s.rubric.find((r) => r.criterionId === criterion.id)?.points ?? 0)),
      criterion.points,
    ),
  }));
  const samplePoints = samples.map((s) =>
    criteria.length
      ? clamp(
          sumPoints(criteria.map((c) => clamp(s.rubric.find((r) => r.criterionId === c.id)?.points ?? 0, c.points))),
          maxPoints,
        )
      : clamp(s.points, maxPoints),
  );
  const points = criteria.length ? clamp(sumPoints(rubric.map((r) => r.points)), maxPoints) : lowerMedian(samplePoints);
  const chosen = samples[samplePoints.findIndex((p) => p === points)] ?? samples[0]!;
  const rubricKey = (s: SuggestionSample) =>
    criteria.map((c) => clamp(s.rubric.find((r) => r.criterionId === c.id)?.points ?? 0, c.points)).join(',');
  const uncertain = new Set(samplePoints).size > 1 || (criteria.length > 0 && new Set(samples.map(rubricKey)).size > 1);
  return {
    points,
    rubric,
    rationale: chosen.rationale.slice(0, SUGGESTION_RATIONALE_MAX),
    quote: chosen.quote,
    uncertain,
    samplePoints,
  };
}

/** POST /api/exams/{examId}/questions/{questionIndex}/suggestions: a batch over the question's answers. */
export const StartSuggestionBatchSchema = z.object({
  /** `unmarked`: answers no grader marked yet (the default); `all`: every answer; `results`: those listed. */
  scope: z.enum(['unmarked', 'all', 'results']).default('unmarked'),
  /** With scope `results` (one group, say): the results to suggest marks for. */
  resultIds: z.array(z.string().min(1).max(64)).max(5000).optional(),
  /** At most this many provider calls at once (each answer's samples count one each). */
  concurrency: z.number().int().min(1).max(16).default(4),
  samples: z.number().int().min(1).max(SUGGESTION_SAMPLES_MAX).default(SUGGESTION_SAMPLES_DEFAULT),
});
export type StartSuggestionBatch = z.infer<typeof StartSuggestionBatchSchema>;

export const SUGGESTION_BATCH_STATUSES = [
  'running',
  'completed',
  'cancelled',
  'failed',
  'budget-exhausted',
  'interrupted',
] as const;
export type SuggestionBatchStatus = (typeof SUGGESTION_BATCH_STATUSES)[number];

export const SuggestionBatchSchema = z.object({
  id: z.string(),
  examId: z.string(),
  questionIndex: z.number().int(),
  status: z.enum(SUGGESTION_BATCH_STATUSES),
  concurrency: z.number().int(),
  samples: z.number().int(),
  /** Answers suggested so far (done), of total; failed ones are counted apart and may be asked again. */
  progress: z.object({ done: z.number().int(), failed: z.number().int(), total: z.number().int() }),
  cancelRequested: z.boolean(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type SuggestionBatch = z.infer<typeof SuggestionBatchSchema>;
export const LatestSuggestionBatchSchema = z.object({ batch: SuggestionBatchSchema.nullable() });

/** Whether suggestions can be asked for this exam, and what its grading budget has left. */
export const SuggestionAvailabilitySchema = z.object({
  available: z.boolean(),
  /** Why not, in words for the grader ('No AI provider is configured for this exam.'); null when available. */
  reason: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  /** The exam's grading budget (tokens for all its suggestions) and what is spent. */
  budgetTokens: z.number().int(),
  usedTokens: z.number().int(),
});
export type SuggestionAvailability = z.infer<typeof SuggestionAvailabilitySchema>;

export const SuggestionMessages = {
  noProvider: 'No AI provider is configured for this exam: set a provider, model and key in its AI settings.',
  budgetExhausted: "This exam's grading budget is spent: raise it in the exam's AI settings to ask for more.",
  notHumanGraded: 'Suggestions are only made for answers a grader marks (no key, no tests decide them).',
  unreadable: 'This answer has no text a suggestion could read.',
  batchRunning: 'A suggestion batch is already running for this question.',
  batchNotRunning: 'The suggestion batch is not running.',
  gatewayDown: 'The AI service cannot be reached right now; marks can still be given by hand.',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// The answers of one question, their groups, and marks given to many at once

export const AnswerGroupViewSchema = z.object({
  groupId: z.string(),
  /** Sorted. */
  resultIds: z.array(z.string()),
  /** The representative answer (its most frequent spelling). */
  answer: z.string(),
  /** Different normalised forms in the group: 1 when every member is identical. */
  forms: z.number().int(),
  empty: z.boolean(),
});
export type AnswerGroupView = z.infer<typeof AnswerGroupViewSchema>;

/** GET /api/exams/{examId}/questions/{questionIndex}/answer-groups */
export const AnswerGroupsSchema = z.object({
  examId: z.string(),
  questionIndex: z.number().int(),
  groups: z.array(AnswerGroupViewSchema),
});
export type AnswerGroups = z.infer<typeof AnswerGroupsSchema>;

/** Who decided a mark, as the grade history says it. */
export const MarkDecisionSchema = z.object({
  by: z.string(),
  at: z.string(),
  /** The grader took the AI's suggestion as it was, or changed it; null for a mark given without one. */
  suggestion: z.enum(['accepted', 'edited']).nullable(),
});
export type MarkDecision = z.infer<typeof MarkDecisionSchema>;

export const QuestionAnswerRowSchema = z.object({
  resultId: z.string(),
  /** 1-based, in submission order: how the answer is named while names are hidden ('Candidate 7'). */
  number: z.number().int(),
  /** Only with `names=true`: anonymous grading hides who wrote the answer until the grader asks. */
  candidate: z.object({ name: z.string(), studentId: z.string() }).nullable(),
  answer: z.string(),
  /** The answer exactly as saved, as on a result's QuestionAnswer (result.ts); null when unanswered. */
  answerValue: z.string().nullable().optional(),
  /**
   * The key as people read it, from this candidate's own question (a calculated question's key is theirs alone;
   * after a regrade, the current key). The owner's route only; null when a grader decides.
   */
  correctAnswer: z.string().nullable().optional(),
  /** A calculated question: the values this candidate was given (as on a result's QuestionAnswer). */
  calculatedValues: z.record(z.string(), z.number()).nullable().optional(),
  /** File uploads: the file, and its text when it can be read (plain text, PDF, DOCX), cut at 20,000 chars. */
  file: z.object({ fileName: z.string(), size: z.number().int() }).nullable(),
  fileText: z.string().nullable(),
  points: z.number().nullable(),
  maxPoints: z.number(),
  /** The key (or the tests) decided the points and no grader overrode them. */
  autoScored: z.boolean(),
  feedback: z.string(),
  criteria: z.array(z.string()),
  groupId: z.string(),
  /** Taken out of its group by a grader: it is marked alone. */
  detached: z.boolean(),
  suggestion: GradingSuggestionSchema.nullable(),
  /** Needs a human's attention first: its suggestion is uncertain. */
  flagged: z.boolean(),
  /** The newest grade-history entry of this question, when a grader marked it. */
  decision: MarkDecisionSchema.nullable(),
});
export type QuestionAnswerRow = z.infer<typeof QuestionAnswerRowSchema>;

/** GET /api/exams/{examId}/questions/{questionIndex}/answers?names=true|false */
export const QuestionAnswersQuerySchema = z.object({ names: z.enum(['true', 'false']).default('false') });

export const CommentBankEntrySchema = z.object({ text: z.string(), uses: z.number().int() });

export const QuestionAnswersSchema = z.object({
  examId: z.string(),
  examTitle: z.string(),
  questionIndex: z.number().int(),
  /** How many questions the exam has (for the question picker). */
  questionCount: z.number().int(),
  title: z.string(),
  content: z.string(),
  type: QuestionTypeSchema,
  maxPoints: z.number(),
  rubric: RubricSchema.nullable(),
  /** A grader marks this question's answers (no key, no tests decide them). */
  humanGraded: z.boolean(),
  answers: z.array(QuestionAnswerRowSchema),
  groups: z.array(AnswerGroupViewSchema),
  /** "12 of 87 marked": answers with points (by a grader, the key or tests) of all answers. */
  progress: z.object({ marked: z.number().int(), total: z.number().int() }),
  /** Feedback already written for this question, most used first: the comment bank. */
  commentBank: z.array(CommentBankEntrySchema),
  suggestions: SuggestionAvailabilitySchema,
});
export type QuestionAnswers = z.infer<typeof QuestionAnswersSchema>;

/**
 * POST /api/exams/{examId}/questions/{questionIndex}/marks: one mark for several answers (a group, or one).
 * Every listed result gets the mark and its own grade-history entry, in one transaction: all or none.
 * With `suggestionId`, the mark takes that suggestion: the history says "suggested by AI, accepted by" when
 * points and criteria equal the suggestion's, "edited by" when the grader changed them.
 */
export const QuestionMarkSchema = z.object({
  resultIds: z.array(z.string().min(1).max(64)).min(1).max(5000),
  points: z.number().min(0).max(1000).nullable(),
  feedback: z.string().max(20000).default(''),
  criteria: z.array(z.string().max(64)).max(30).default([]),
  reason: z.string().trim().max(2000).optional(),
  suggestionId: z.string().min(1).max(64).optional(),
});
export type QuestionMark = z.infer<typeof QuestionMarkSchema>;
export const QuestionMarkReportSchema = z.object({ marked: z.number().int(), unchanged: z.number().int() });
export type QuestionMarkReport = z.infer<typeof QuestionMarkReportSchema>;

/** POST /api/exams/{examId}/questions/{questionIndex}/detachments: takes an answer out of its group (or back). */
export const DetachAnswerSchema = z.object({ resultId: z.string().min(1).max(64), detached: z.boolean() });
export type DetachAnswer = z.infer<typeof DetachAnswerSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Agreement between suggestions and graders

export const QuestionAgreementSchema = z.object({
  questionIndex: z.number().int(),
  title: z.string(),
  n: z.number().int(),
  exactAgreement: z.number().nullable(),
  kappa: z.number().nullable(),
  weightedKappa: z.number().nullable(),
  weightedKappaLow: z.number().nullable(),
  weightedKappaHigh: z.number().nullable(),
  meanAbsoluteDifference: z.number().nullable(),
  /** Why a figure is missing or says little (packages/psychometrics/src/agreement.ts's notes). */
  notes: z.object({ kappa: z.string(), weightedKappa: z.string(), interval: z.string() }).partial(),
});
export type QuestionAgreement = z.infer<typeof QuestionAgreementSchema>;

/** GET /api/exams/{examId}/grading/agreement: per question with at least one suggestion. */
export const GradingAgreementSchema = z.object({ examId: z.string(), questions: z.array(QuestionAgreementSchema) });
export type GradingAgreement = z.infer<typeof GradingAgreementSchema>;

// ---------------------------------------------------------------------------------------------------------------
// llm-gateway's internal route (results-service → gateway), never called by a browser

/**
 * POST /internal/exams/{examId}/grading-suggestions. The question and one answer's text, nothing else: no
 * candidate name, ID or e-mail (results-service also masks them where the answer itself contains them).
 */
export const InternalSuggestRequestSchema = z.object({
  question: z.object({
    title: z.string().max(500),
    content: z.string().max(50_000),
    type: QuestionTypeSchema,
    maxPoints: z.number(),
    rubric: RubricSchema.nullable(),
  }),
  answer: z.string().max(60_000),
  samples: z.number().int().min(1).max(SUGGESTION_SAMPLES_MAX),
});
export type InternalSuggestRequest = z.infer<typeof InternalSuggestRequestSchema>;

export const InternalSuggestReplySchema = z.object({
  /** Every sample that came back valid (at least one, or the call is an error). */
  samples: z.array(SuggestionSampleSchema).min(1),
  provider: z.string(),
  model: z.string(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
});
export type InternalSuggestReply = z.infer<typeof InternalSuggestReplySchema>;

/** GET /internal/exams/{examId}/grading-usage answers SuggestionAvailabilitySchema. */
