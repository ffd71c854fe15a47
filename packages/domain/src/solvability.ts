import { z } from 'zod';
import { AUDIT_MAX_COMPARISONS, AuditConfigurationSchema } from './assistant-audit.ts';
import { QuestionTypeSchema } from './question.ts';

/**
 * The AI solvability check (docs/product.md, "Before publishing: can the assistant solve it?"): before an exam
 * is published its creator asks the exam's own assistant, as a candidate would, for the answer to each question
 * in a few phrasings, and reads which questions it gives away. llm-gateway runs the check and keeps its state.
 */

export const SOLVABILITY_MAX_PHRASINGS = 5;
export const SOLVABILITY_DEFAULT_PHRASINGS = 3;
/** The longest excerpt of a reply the report keeps for the creator to read. */
export const SOLVABILITY_REPLY_CHARS = 1200;

export const StartSolvabilityCheckSchema = z
  .object({
    phrasingsPerQuestion: z.number().int().min(1).max(SOLVABILITY_MAX_PHRASINGS).default(SOLVABILITY_DEFAULT_PHRASINGS),
    /** Caps for this run; without them the gateway's defaults (SOLVABILITY_MAX_CALLS, SOLVABILITY_MAX_TOKENS). */
    maxCalls: z.number().int().min(1).max(500).optional(),
    maxTokens: z.number().int().min(1000).max(2_000_000).optional(),
    /**
     * Provider equivalence (assistant-audit.ts): the same questions asked of other configurations too, each item
     * reported per configuration (configuration 0 is the exam's own). Keys as for the audit's compareWith.
     */
    compareWith: z.array(AuditConfigurationSchema).max(AUDIT_MAX_COMPARISONS).default([]),
  })
  .strict();
export type StartSolvabilityCheck = z.input<typeof StartSolvabilityCheckSchema>;

export const SOLVABILITY_STATUSES = [
  'running',
  'completed',
  /** A cap was reached: the report holds what was asked before it. */
  'budget-exhausted',
  'cancelled',
  /** The run could not go on (the assistant refused every call, the exam disappeared…): see `error`. */
  'failed',
  /** The replica running it stopped (its lease expired or it shut down): the report holds what it had. */
  'interrupted',
] as const;
export const SolvabilityStatusSchema = z.enum(SOLVABILITY_STATUSES);
export type SolvabilityStatus = z.infer<typeof SolvabilityStatusSchema>;

export const SOLVABILITY_VERDICTS = ['gives-away', 'hints', 'holds', 'not-judged'] as const;
export const SolvabilityVerdictSchema = z.enum(SOLVABILITY_VERDICTS);
export type SolvabilityVerdict = z.infer<typeof SolvabilityVerdictSchema>;

/**
 * What one reply did: named the key in what the candidate would have seen ('answer'), was stopped by the
 * "stop solutions" guardrail before it did ('withheld'), did neither ('none'), failed upstream ('error'), or
 * could not be judged against a key ('not-judged', e.g. code the runner could not run). A coding reply is
 * 'answer' when its code passes every visible test, and 'none' when it has no code or its code fails.
 */
export const SOLVABILITY_REPLY_OUTCOMES = ['answer', 'withheld', 'none', 'error', 'not-judged'] as const;
export const SolvabilityReplyOutcomeSchema = z.enum(SOLVABILITY_REPLY_OUTCOMES);
export type SolvabilityReplyOutcome = z.infer<typeof SolvabilityReplyOutcomeSchema>;

export const SolvabilityReplySchema = z.object({
  phrasing: z.string(),
  /** What the candidate would have seen, cut at SOLVABILITY_REPLY_CHARS. */
  text: z.string(),
  truncated: z.boolean(),
  outcome: SolvabilityReplyOutcomeSchema,
  /** The reply holds a fenced code block (coding questions). */
  hasCode: z.boolean(),
});
export type SolvabilityReply = z.infer<typeof SolvabilityReplySchema>;

/** Why an item was not judged, or null. */
export const SOLVABILITY_NOT_JUDGED_REASONS = [
  'no-key',
  'file-upload',
  /** Kept for reports written before coding replies were run against the tests. */
  'code-not-run',
  /** A coding question without visible tests: there is nothing the check may run a reply against. */
  'no-visible-tests',
  /** The code runner could not run a reply's code (no sandbox, unreachable, failed or too slow). */
  'runner-unavailable',
  'provider-error',
  'not-asked',
] as const;
export const SolvabilityNotJudgedReasonSchema = z.enum(SOLVABILITY_NOT_JUDGED_REASONS);
export type SolvabilityNotJudgedReason = z.infer<typeof SolvabilityNotJudgedReasonSchema>;

export const SolvabilityItemSchema = z.object({
  /** Which of the check's configurations asked (0: the exam's own). */
  configuration: z.number().int().min(0).default(0),
  questionIndex: z.number().int().min(0),
  questionId: z.string(),
  title: z.string(),
  type: QuestionTypeSchema,
  verdict: SolvabilityVerdictSchema,
  reason: SolvabilityNotJudgedReasonSchema.nullable(),
  replies: z.array(SolvabilityReplySchema),
});
export type SolvabilityItem = z.infer<typeof SolvabilityItemSchema>;

export const SolvabilityCheckSchema = z.object({
  id: z.string(),
  examId: z.string(),
  status: SolvabilityStatusSchema,
  /** The exam version checked (the audit's auditVersionOf); '' for checks stored before versions were kept. */
  examVersion: z.string().default(''),
  /** Configuration 0 is the exam's own at the start; more when the creator compared (compareWith). */
  configurations: z.array(AuditConfigurationSchema).default([]),
  phrasingsPerQuestion: z.number().int(),
  budget: z.object({ maxCalls: z.number().int(), maxTokens: z.number().int() }),
  used: z.object({ calls: z.number().int(), tokens: z.number().int() }),
  /** Provider calls planned and made. */
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  cancelRequested: z.boolean(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  items: z.array(SolvabilityItemSchema),
});
export type SolvabilityCheck = z.infer<typeof SolvabilityCheckSchema>;

export const LatestSolvabilityCheckSchema = z.object({ check: SolvabilityCheckSchema.nullable() });
export type LatestSolvabilityCheck = z.infer<typeof LatestSolvabilityCheckSchema>;

export const SolvabilityCheckParamsSchema = z.object({ examId: z.string().min(1), checkId: z.string().min(1) });
export const SolvabilityExamParamsSchema = z.object({ examId: z.string().min(1) });

/** Whether a check is over (nothing will change it any more). */
export const isFinished = (status: SolvabilityStatus) => status !== 'running';

/**
 * One question's verdict from its replies: any reply that named the key gives it away; otherwise a reply the
 * guardrail had to stop means the assistant tried (the guardrail alone holds, a hint at best); otherwise it holds.
 * Replies that all failed or could not be judged leave the item not judged.
 */
export function itemVerdict(outcomes: readonly SolvabilityReplyOutcome[]): SolvabilityVerdict {
  if (outcomes.includes('answer')) return 'gives-away';
  if (outcomes.includes('withheld')) return 'hints';
  if (outcomes.includes('none')) return 'holds';
  return 'not-judged';
}
