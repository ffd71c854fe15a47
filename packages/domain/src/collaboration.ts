import { z } from 'zod';

/**
 * A candidate's collaboration profile (issue 33, docs/product.md#collaboration-profile): how they worked beside
 * the assistant, on four dimensions, each a level 0–4 (higher: more of the dimension's good pole) with the
 * evidence it rests on.
 *   framing       frames the problem, asks conceptual or clarifying questions   vs delegates the whole answer
 *   verification  checks or runs the assistant's output, pushes back when wrong  vs takes it on trust
 *   integration   edits what they take from the assistant                       vs pastes it whole
 *   independence  as able without the assistant as with it                      vs leans on it (the aided/unaided gap)
 * Integration and independence are process-based: computed from the timeline's provenance and the ability fit.
 * Framing and verification are judgement-based: the model suggests a level with quotes from the transcript, and
 * the grader accepts or changes it (the flow and agreement figures of AI-suggested marks, question-grading.ts);
 * their process figures (how many messages paste the question, test runs after a reply…) are shown beside the
 * suggestion as evidence. A profile describes; it never changes a score.
 */

export const COLLABORATION_DIMENSIONS = ['framing', 'verification', 'integration', 'independence'] as const;
export const CollaborationDimensionSchema = z.enum(COLLABORATION_DIMENSIONS);
export type CollaborationDimension = z.infer<typeof CollaborationDimensionSchema>;

/** The dimensions the model suggests and a grader confirms. */
export const JUDGED_DIMENSIONS = ['framing', 'verification'] as const;
export const JudgedDimensionSchema = z.enum(JUDGED_DIMENSIONS);
export type JudgedDimension = z.infer<typeof JudgedDimensionSchema>;

export const COLLABORATION_LEVEL_MAX = 4;
export const CollaborationLevelSchema = z
  .number({ error: 'Enter a level from 0 to 4' })
  .int('Enter a level from 0 to 4')
  .min(0, 'Enter a level from 0 to 4')
  .max(COLLABORATION_LEVEL_MAX, 'Enter a level from 0 to 4');

/** What each level means, shown beside the level and given to the model as the scale. */
export const COLLABORATION_SCALES: Record<CollaborationDimension, readonly [string, string, string, string, string]> = {
  framing: [
    'Delegates: asks for the whole answer, often pasting the question',
    'Mostly delegates, with an occasional question of their own',
    'Mixes asking for answers with questions about the problem',
    'Mostly decomposes the problem and asks about concepts or steps',
    'Frames the problem: conceptual and clarifying questions, asks for pieces they then assemble',
  ],
  verification: [
    'Takes replies on trust: no checks, no runs, no pushback',
    'Rarely checks what the assistant says',
    'Sometimes checks or questions a reply',
    'Usually checks, runs or questions replies before using them',
    'Checks or runs the output and pushes back when the assistant is wrong',
  ],
  integration: [
    'Pastes the assistant’s text whole and keeps it as given',
    'Keeps most of what they paste unchanged',
    'Edits about half of what they take from the assistant',
    'Reworks most of what they take',
    'Writes their own answer, using the assistant’s text only as material',
  ],
  independence: [
    'Far weaker without the assistant than with it',
    'Clearly weaker without the assistant',
    'Somewhat weaker without the assistant',
    'About as able without the assistant',
    'As able or abler without the assistant',
  ],
};

export const CollaborationEvidenceSchema = z.object({
  kind: z.enum(['quote', 'figure', 'event']),
  text: z.string(),
  /** A quote's transcript message, when known. */
  messageId: z.string().optional(),
  at: z.string().optional(),
});
export type CollaborationEvidence = z.infer<typeof CollaborationEvidenceSchema>;

/** The model's suggestion for a judged dimension and what the grader made of it. */
export const CollaborationJudgementSchema = z.object({
  suggestedLevel: CollaborationLevelSchema,
  rationale: z.string(),
  /** Verbatim quotes from the candidate's transcript the suggestion rests on. */
  quotes: z.array(z.string()),
  /** 'suggested' until a grader decides; 'accepted' keeps the suggestion, 'edited' sets another level. */
  status: z.enum(['suggested', 'accepted', 'edited']),
  finalLevel: CollaborationLevelSchema.nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  suggestedAt: z.string(),
});
export type CollaborationJudgement = z.infer<typeof CollaborationJudgementSchema>;

export const CollaborationDimensionViewSchema = z.object({
  dimension: CollaborationDimensionSchema,
  /** The level that counts: the grader's for a judged dimension (null until decided), computed otherwise. */
  level: CollaborationLevelSchema.nullable(),
  basis: z.enum(['process', 'judgement']),
  /** The process figures, by name (docs/product.md#collaboration-profile lists them); null: not measurable. */
  figures: z.record(z.string(), z.number().nullable()),
  evidence: z.array(CollaborationEvidenceSchema),
  /** Why the level is null, when it is. */
  reason: z.string().nullable(),
  /** Judged dimensions only: the suggestion and the decision (null before any suggestion). */
  judgement: CollaborationJudgementSchema.nullable(),
});
export type CollaborationDimensionView = z.infer<typeof CollaborationDimensionViewSchema>;

/** GET /api/results/{resultId}/collaboration (the exam's creator). */
export const CollaborationProfileSchema = z.object({
  resultId: z.string(),
  dimensions: z.array(CollaborationDimensionViewSchema),
  /** Parts that could not be read (a service down), shown, never hidden. */
  unavailable: z.array(z.enum(['assistant', 'workspace', 'ability'])),
});
export type CollaborationProfile = z.infer<typeof CollaborationProfileSchema>;

/**
 * PUT /api/results/{resultId}/collaboration/{dimension}: the grader's level for a judged dimension. Equal to the
 * suggestion: accepted; otherwise edited. 409 before a suggestion exists.
 */
export const SetCollaborationLevelSchema = z.object({ level: CollaborationLevelSchema });
export type SetCollaborationLevel = z.infer<typeof SetCollaborationLevelSchema>;

export const CollaborationParamsSchema = z.object({
  resultId: z.string().min(1).max(64),
  dimension: JudgedDimensionSchema,
});

export const CollaborationMessages = {
  noTranscript: 'This candidate did not use the assistant: there is nothing to judge.',
  suggestFirst: 'Ask for a suggestion first, or the profile has nothing to confirm.',
  noProvider: 'AI suggestions need the exam’s provider and key. The levels can still be set by hand after one exists.',
  gatewayDown:
    'The AI service cannot be reached right now; ask again later. Levels already suggested can still be set by hand.',
  undecided: 'Suggested: a grader has not accepted it or chosen another level yet.',
  assistantUnavailable:
    'The assistant transcript could not be read right now (llm-gateway is unavailable); try again later.',
  nothingTaken: 'Nothing was taken from the assistant into the answers: there is nothing to integrate.',
  noAbilityFit: 'The exam has no items sat both with and without the assistant, so there is no aided/unaided gap.',
  abilityUnavailable: 'The insights report could not be computed right now, so the aided/unaided gap is not known.',
  notInReport: 'This result is not the one the exam keeps for the candidate, so insights give it no gap.',
  noGap: 'The ability fit gives this candidate no gap estimate.',
} as const;

/**
 * POST {LLM_GATEWAY_URL}/internal/exams/{examId}/collaboration-suggestions: one candidate's conversation, no
 * name or ID. The gateway asks the provider for a structured reply (question-grading.ts's structured output) and
 * counts the spend against the exam's grading budget.
 */
export const CollaborationSuggestionRequestSchema = z.object({
  questions: z.array(z.object({ index: z.number().int(), title: z.string(), content: z.string() })).max(500),
  messages: z
    .array(
      z.object({
        id: z.string(),
        role: z.enum(['user', 'assistant']),
        content: z.string(),
        questionIndex: z.number().int().nullable(),
      }),
    )
    .max(2000),
  /** Process figures the model may cite (test runs after replies, pastes of the question…). */
  figures: z.record(z.string(), z.number().nullable()),
});
export type CollaborationSuggestionRequest = z.infer<typeof CollaborationSuggestionRequestSchema>;

/** One judged dimension as the provider returns it (validated; quotes not found in the transcript are dropped). */
export const CollaborationSuggestionSampleSchema = z.object({
  level: CollaborationLevelSchema,
  rationale: z.string().max(2000),
  quotes: z.array(z.string().max(500)).max(5),
});

/** What the provider is asked for (the structured output) and its reply is validated with. */
export const CollaborationSuggestionOutputSchema = z.object({
  framing: CollaborationSuggestionSampleSchema,
  verification: CollaborationSuggestionSampleSchema,
});

export const CollaborationSuggestionReplySchema = CollaborationSuggestionOutputSchema.extend({
  /** Which provider and model made it (stored with the judgement, as a grading suggestion's are). */
  provider: z.string(),
  model: z.string(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
});
export type CollaborationSuggestionReply = z.infer<typeof CollaborationSuggestionReplySchema>;

/** A candidate's levels on insights and in the CSV (null: not measured or not yet decided). */
export const CandidateCollaborationSchema = z.object({
  framing: CollaborationLevelSchema.nullable(),
  verification: CollaborationLevelSchema.nullable(),
  integration: CollaborationLevelSchema.nullable(),
  independence: CollaborationLevelSchema.nullable(),
});
export type CandidateCollaboration = z.infer<typeof CandidateCollaborationSchema>;

/** The cohort's profiles on insights: how many candidates at each level of each dimension, and agreement. */
export const CohortCollaborationSchema = z.object({
  /** levels[d][k]: candidates at level k of dimension d; `unmeasured` those with none. */
  dimensions: z.array(
    z.object({
      dimension: CollaborationDimensionSchema,
      levels: z.array(z.number().int().nonnegative()).length(COLLABORATION_LEVEL_MAX + 1),
      unmeasured: z.number().int().nonnegative(),
    }),
  ),
  /** How far the model's suggestions agree with the graders' levels, per judged dimension. */
  agreement: z.array(
    z.object({
      dimension: JudgedDimensionSchema,
      decided: z.number().int().nonnegative(),
      accepted: z.number().int().nonnegative(),
      exactAgreement: z.number().nullable(),
      /** Quadratic-weighted kappa (Cohen 1968) over the decided ones; null with fewer than 2 or no variance. */
      weightedKappa: z.number().nullable(),
    }),
  ),
});
export type CohortCollaboration = z.infer<typeof CohortCollaborationSchema>;
