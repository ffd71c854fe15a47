import { z } from 'zod';
import { AnswerOperationSchema, AnswerSourceSchema } from './answer-operations.ts';
import { AgentCallSchema } from './workspace-agents.ts';

/**
 * One timeline per attempt (issue 31): everything that happened, in time order, and how each answer came to be.
 * GET /api/results/{resultId}/timeline, for the exam's creator only.
 */

export const TIMELINE_EVENT_KINDS = [
  /** An answer changed: `questionIndex`, `operation` (the index into answers[i].operations). */
  'answer-edit',
  'paste-blocked',
  'paste-allowed',
  'copy',
  'focus-lost',
  'focus-gained',
  'fullscreen-exit',
  'fullscreen-enter',
  'question-view',
  /** A message the candidate sent, `messageId` its id in the transcript (GET /api/llm/transcripts/…). */
  'assistant-user',
  /** The assistant's reply. */
  'assistant-reply',
  /** The assistant refused or cut a reply by a guardrail (detail: which). */
  'guardrail-stop',
  /** "Run tests" on a coding question: detail holds passed/total. */
  'test-run',
  /** A file in the coding workspace changed: `path`, `change` (index into workspaceFiles[path].changes). */
  'workspace-change',
  'announcement',
  /** The recording of operations stopped at the per-attempt cap (docs/configuration.md: OPERATIONS_PER_ATTEMPT_MAX_BYTES). */
  'recording-capped',
  /** The candidate entered a section (sections.ts): `detail` names it; section 0 begins at the start. */
  'section-start',
  'submit',
  /** A follow-up question after submit (follow-up.ts) was put to the candidate: `questionIndex` the probed question, `detail` its text. */
  'follow-up-asked',
  /** The candidate's answer to a follow-up (`detail`: 'answered' or 'timed-out'). */
  'follow-up-answered',
  /**
   * A call the workspace's coding agent made through the gateway (workspace-agents.ts): `messageId` is its id in
   * `agentCalls`, `detail` its status and tool names.
   */
  'agent-call',
] as const;
export type TimelineEventKind = (typeof TIMELINE_EVENT_KINDS)[number];

export const TimelineEventSchema = z.object({
  at: z.string(),
  kind: z.enum(TIMELINE_EVENT_KINDS),
  questionIndex: z.number().int().optional(),
  /** answer-edit: the index of the operation in answers[questionIndex].operations. */
  operation: z.number().int().optional(),
  messageId: z.string().optional(),
  path: z.string().optional(),
  change: z.number().int().optional(),
  detail: z.string().optional(),
  /** test-run */
  passed: z.number().int().optional(),
  total: z.number().int().optional(),
});
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;

export const SourceSharesSchema = z.object({
  typed: z.number().int(),
  pasted: z.number().int(),
  assistant: z.number().int(),
  autocomplete: z.number().int(),
  restored: z.number().int(),
});

/**
 * Typing figures of one answer (typing-signals.ts), with the exam cohort's percentile of each where a cohort
 * exists. Review signals, never verdicts: they never change a score.
 */
export const TypingSignalsSchema = z.object({
  /** Typed characters per minute of active typing (pauses of 2 s or more left out). null: too little typing. */
  charsPerMinute: z.number().nullable(),
  /** Inter-key intervals: median, and how many pauses fell in each band. */
  pauses: z.object({
    medianMs: z.number().nullable(),
    under2s: z.number().int(),
    from2to10s: z.number().int(),
    over10s: z.number().int(),
  }),
  /** Deleted characters ÷ inserted characters (all sources; an IME's composing updates count once, as committed). */
  revisionRatio: z.number().nullable(),
  /** Most characters typed without a pause of 2 s or more. */
  longestBurst: z.number().int(),
  /** Keystrokes the figures rest on. */
  keystrokes: z.number().int(),
  /**
   * Spans that look transcribed: long, at a steady speed, with almost no revisions and nothing visible they could
   * have been copied from. `chars` the characters in such spans.
   */
  transcriptionLike: z.object({
    flagged: z.boolean(),
    spans: z.array(z.object({ start: z.string(), end: z.string(), chars: z.number().int() })),
    chars: z.number().int(),
  }),
  /** The exam cohort's percentile (0–100) of each figure, null without a cohort to compare with. */
  percentiles: z
    .object({
      charsPerMinute: z.number().nullable(),
      medianPauseMs: z.number().nullable(),
      revisionRatio: z.number().nullable(),
      longestBurst: z.number().nullable(),
    })
    .optional(),
});
export type TypingSignals = z.infer<typeof TypingSignalsSchema>;

export const TimelineAnswerSchema = z.object({
  questionIndex: z.number().int(),
  /** The stored answer. */
  final: z.string(),
  /** Replayed from empty in order, these give `final` exactly. */
  operations: z.array(AnswerOperationSchema),
  /** Characters of `final` by source. */
  sources: SourceSharesSchema,
  /** The sources of `final` in runs: [length, source], in order, for colouring it. */
  runs: z.array(z.tuple([z.number().int(), AnswerSourceSchema])),
  /** A `restored` operation had to be added to reach `final` (recording capped, another device, a lost log). */
  reconciled: z.boolean(),
  signals: TypingSignalsSchema,
});
export type TimelineAnswer = z.infer<typeof TimelineAnswerSchema>;

/** One workspace file's history: snapshots as diffs from the previous one (workspace-orchestrator). */
export const WorkspaceFileChangeSchema = z.object({
  at: z.string(),
  /** The file's content after this change (the orchestrator stores diffs; the timeline hands out the texts). */
  content: z.string(),
  /** 'typed' when the editor's own edits, unknown otherwise. */
  source: AnswerSourceSchema.nullable(),
  deleted: z.boolean().default(false),
  /** The workspace agent's call that made this change (attributeAgentChanges), null or absent: the candidate's own. */
  agentCallId: z.string().nullable().optional(),
});
export const WorkspaceFileHistorySchema = z.object({ path: z.string(), changes: z.array(WorkspaceFileChangeSchema) });

export const TimelineSchema = z.object({
  resultId: z.string(),
  attemptId: z.string(),
  startedAt: z.string(),
  submittedAt: z.string(),
  events: z.array(TimelineEventSchema),
  answers: z.array(TimelineAnswerSchema),
  workspaceFiles: z.array(WorkspaceFileHistorySchema),
  /** Transcript turns referenced by messageId: role, text, when. */
  messages: z.array(
    z.object({ id: z.string(), role: z.enum(['user', 'assistant']), content: z.string(), at: z.string() }),
  ),
  /** The workspace agent's calls, referenced by `agent-call` events and `agentCallId`. */
  agentCalls: z.array(AgentCallSchema).optional(),
  /** Parts of the timeline that could not be read (a service down): shown, never hidden. */
  unavailable: z.array(z.enum(['assistant', 'workspace'])),
});
export type Timeline = z.infer<typeof TimelineSchema>;

/**
 * The candidate's own summary of their process, shown on the completion page and signed into the receipt.
 * Percentages are of all characters of the final answers (0–100, whole numbers).
 */
export const ProcessSummarySchema = z.object({
  attemptId: z.string(),
  characters: z.number().int(),
  typedPercent: z.number().int(),
  pastedPercent: z.number().int(),
  assistantPercent: z.number().int(),
  autocompletePercent: z.number().int(),
  restoredPercent: z.number().int(),
  /** Messages the candidate sent to the assistant. */
  assistantMessages: z.number().int(),
  /** Pastes of text from outside the exam, refused by the paste guard. */
  outsidePastesBlocked: z.number().int(),
  submittedAt: z.string(),
});
export type ProcessSummary = z.infer<typeof ProcessSummarySchema>;

/** GET /api/attempts/{attemptId}/receipt (the candidate, after submitting): the summary and its compact JWS. */
export const ProcessReceiptSchema = z.object({ summary: ProcessSummarySchema, receipt: z.string() });
export type ProcessReceipt = z.infer<typeof ProcessReceiptSchema>;

/**
 * The receipt's JWS payload (a compact JWS, EdDSA over Ed25519, `kid` naming the key in ReceiptKeySetSchema): what
 * the platform signed when the candidate asked, so anyone with the published keys can check it offline.
 */
export const ReceiptClaimsSchema = z.object({
  attemptId: z.string(),
  resultId: z.string(),
  examId: z.string(),
  summary: ProcessSummarySchema,
  /** Seconds since the epoch when the receipt was signed (RFC 7519 `iat`). */
  iat: z.number().int(),
});
export type ReceiptClaims = z.infer<typeof ReceiptClaimsSchema>;

/** GET /api/results/receipt-keys (public): the keys that sign receipts, as a JWK Set (RFC 7517 §5, RFC 8037). */
export const ReceiptKeySetSchema = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('OKP'),
      crv: z.literal('Ed25519'),
      x: z.string(),
      kid: z.string(),
      alg: z.literal('EdDSA'),
      use: z.literal('sig'),
    }),
  ),
});
export type ReceiptKeySet = z.infer<typeof ReceiptKeySetSchema>;

/** POST /api/results/{resultId}/receipt/verify (the exam's creator). */
export const VerifyReceiptSchema = z.object({ receipt: z.string().min(1).max(8000) });
export const VerifyReceiptResponseSchema = z.object({
  /** The signature is this platform's and the receipt names this result's attempt. */
  valid: z.boolean(),
  /** Why not, when not valid: 'signature', 'attempt', 'malformed'. */
  reason: z.enum(['signature', 'attempt', 'malformed']).optional(),
  /** What the receipt says, when its signature is good. */
  summary: ProcessSummarySchema.optional(),
  /** Whether the figures still match what the platform computes today from the stored timeline. */
  matchesRecord: z.boolean().optional(),
  /** What the platform computes today from the stored timeline, when the signature is good: shown beside `summary`. */
  record: ProcessSummarySchema.optional(),
});

/**
 * What results-service computes from the stored operations for each submission (results.process): each answer's
 * sources and typing signals (percentiles are added on read, against the cohort) and the candidate's summary. It is
 * computed just after the submission commits, off the submit path, with the attempt's transcript from llm-gateway
 * (the messages the candidate sent, and the replies as visible text for the typing signals); until then the result
 * is `process_pending` (modules/submissions/process-records.service.ts in results-service).
 */
export const ProcessRecordSchema = z.object({
  summary: ProcessSummarySchema,
  answers: z.array(
    z.object({
      questionIndex: z.number().int(),
      sources: SourceSharesSchema,
      signals: TypingSignalsSchema.omit({ percentiles: true }),
      reconciled: z.boolean(),
      /**
       * Characters inserted from the assistant, kept or not (collaboration-figures.ts's integration figures, read by
       * insights without replaying every attempt). Absent in records made before it was computed.
       */
      assistantInserted: z.number().int().optional(),
    }),
  ),
});
export type ProcessRecord = z.infer<typeof ProcessRecordSchema>;
