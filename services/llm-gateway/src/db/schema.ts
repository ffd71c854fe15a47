import type { AuditConfiguration, AuditEstimate, AuditItem, AuditTurn, LeakForm } from '@exam/domain/assistant-audit';
import type { PlantedTurn } from '@exam/domain/planted-errors';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** Everything llm-gateway owns lives in its own PostgreSQL schema. */
export const llmGatewaySchema = pgSchema('llm_gateway');

/**
 * One row per attempt that used the assistant: who owns it (from the attempt token) and the tokens
 * spent so far. Its row lock serialises budget checks of one attempt across replicas.
 */
export const conversations = llmGatewaySchema.table(
  'conversations',
  {
    attemptId: text('attempt_id').primaryKey(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    tokensUsed: integer('tokens_used').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversations_exam_idx').on(t.examId)],
);

export type StoredFile = { name: string; type: string; size: number };

export const messages = llmGatewaySchema.table(
  'messages',
  {
    id: text('id').primaryKey(),
    /** Insertion order; created_at alone can tie. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    attemptId: text('attempt_id')
      .notNull()
      .references(() => conversations.attemptId, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    /** Text read from the user's attachments: sent to the provider with later turns, never returned. */
    attachmentText: text('attachment_text').notNull().default(''),
    files: jsonb('files').$type<StoredFile[]>().notNull().default([]),
    questionIndex: integer('question_index'),
    isError: boolean('is_error').notNull().default(false),
    /** The candidate left while the reply streamed: content is what had arrived. */
    isPartial: boolean('is_partial').notNull().default(false),
    /** Stopped by the "stop solutions" guardrail: content is what reached the candidate, never the key. */
    isWithheld: boolean('is_withheld').notNull().default(false),
    /** The question (of the exam's questions) whose key the stopped reply was about to give away. */
    withheldQuestionIndex: integer('withheld_question_index'),
    /** On a reply asked to carry a planted error (@exam/domain/planted-errors): which, and whether it did. */
    planted: jsonb('planted').$type<PlantedTurn>(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    /**
     * The id the candidate's browser gave the message (ChatRequest.clientMessageId), on the user message and on
     * its reply: a retry of the same message finds them (docs/product.md, "Assistant replies across restarts").
     */
    clientMessageId: text('client_message_id'),
    /** On a user message: the try (one request) whose reply may be stored; a retry takes it over. */
    tryId: text('try_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_attempt_seq_idx').on(t.attemptId, t.seq),
    index('messages_attempt_role_time_idx').on(t.attemptId, t.role, t.createdAt),
    // One user message per id and attempt, however many times the browser sends it.
    uniqueIndex('messages_attempt_client_message_idx')
      .on(t.attemptId, t.clientMessageId)
      .where(sql`${t.role} = 'user'`),
  ],
);

/**
 * One row per message a creator sends to the Test Assistant: only counted, for its rate limit (the
 * conversation itself is the creator's browser's and is not stored).
 */
export const testChatMessages = llmGatewaySchema.table(
  'test_chat_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    creatorId: text('creator_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('test_chat_messages_creator_time_idx').on(t.creatorId, t.createdAt)],
);

/** Counters of one exam's assistant: the same columns per exam (all time) and per exam and minute. */
const spendColumns = {
  /** Messages admitted (a message taken back because its attempt was closed is not counted). */
  requests: bigint('requests', { mode: 'number' }).notNull().default(0),
  /** Tokens of the stored replies (prompt and reply, as the provider reported or as estimated). */
  tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  /** Messages refused, by the budget that refused them. */
  refusedExamRequests: integer('refused_exam_requests').notNull().default(0),
  refusedExamTokens: integer('refused_exam_tokens').notNull().default(0),
  refusedAttemptMessages: integer('refused_attempt_messages').notNull().default(0),
  refusedAttemptTokens: integer('refused_attempt_tokens').notNull().default(0),
};

/**
 * One row per exam whose assistant was used: totals since the first message. Its row lock serialises the
 * exam-wide budget check of every attempt of the exam, on any replica (src/db/functions/admit_user_message.sql).
 */
export const examUsage = llmGatewaySchema.table('exam_usage', {
  examId: text('exam_id').primaryKey(),
  ...spendColumns,
});

/**
 * The same counters per minute, for the exam-wide budget's sliding hour: the last 60 rows of an exam are
 * its window; older rows are deleted by the admission that finds them.
 */
export const examUsageMinutes = llmGatewaySchema.table(
  'exam_usage_minutes',
  {
    examId: text('exam_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    ...spendColumns,
  },
  (t) => [primaryKey({ columns: [t.examId, t.minute] })],
);

/**
 * One row per AI solvability check of an exam (modules/solvability): its caps, progress and report, and the
 * lease of the replica running it. Any replica reads progress from here and sets `cancel_requested`; the
 * runner renews `lease_expires_at` between and during provider calls, so a row still 'running' past its lease
 * is a run whose replica died, reported as interrupted.
 */
export const solvabilityChecks = llmGatewaySchema.table(
  'solvability_checks',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    status: text('status').notNull(),
    phrasingsPerQuestion: integer('phrasings_per_question').notNull(),
    maxCalls: integer('max_calls').notNull(),
    maxTokens: integer('max_tokens').notNull(),
    callsUsed: integer('calls_used').notNull().default(0),
    tokensUsed: integer('tokens_used').notNull().default(0),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /** SolvabilityItem[] (@exam/domain/solvability), rewritten after each call. */
    items: jsonb('items').$type<unknown[]>().notNull().default([]),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    error: text('error'),
    /** The run that holds the lease (a random id per run and replica). */
    leaseOwner: text('lease_owner').notNull(),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The exam version checked (audit's auditVersionOf); '' for rows from before versions were kept. */
    examVersion: text('exam_version').notNull().default(''),
    /** AuditConfiguration[] (@exam/domain/assistant-audit): 0 is the exam's own; more when the creator compared. */
    configurations: jsonb('configurations').$type<AuditConfiguration[]>().notNull().default([]),
  },
  (t) => [
    index('solvability_checks_exam_started_idx').on(t.examId, t.startedAt),
    // At most one running check per exam, across replicas: a second start fails on this index (409).
    uniqueIndex('solvability_checks_one_running_idx')
      .on(t.examId)
      .where(sql`${t.status} = 'running'`),
  ],
);

/**
 * What an exam's AI-suggested marks have spent (docs/product.md#grading-by-question), against the grading
 * budget of its AI settings (`budget.gradingTokens`). One row per exam, added to with one atomic update per
 * suggestion, so every replica sees the same total.
 */
export const gradingUsage = llmGatewaySchema.table('grading_usage', {
  examId: text('exam_id').primaryKey(),
  calls: integer('calls').notNull().default(0),
  inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
  outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * One row per assistant audit of an exam (modules/audit, @exam/domain/assistant-audit): its configurations, caps,
 * progress and the report's items (recomputed from audit_attempts after each attempt), and the lease of the
 * replica running it. Unlike a solvability check, a run whose lease lapsed is not ended: the resume pass of any
 * replica claims it and goes on with the attempts not yet in audit_attempts.
 */
export const assistantAudits = llmGatewaySchema.table(
  'assistant_audits',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    examVersion: text('exam_version').notNull(),
    batteryVersion: text('battery_version').notNull(),
    status: text('status').notNull(),
    configurations: jsonb('configurations').$type<AuditConfiguration[]>().notNull(),
    concurrency: integer('concurrency').notNull(),
    maxTokens: integer('max_tokens').notNull(),
    estimate: jsonb('estimate').$type<AuditEstimate>().notNull(),
    callsUsed: integer('calls_used').notNull().default(0),
    tokensUsed: integer('tokens_used').notNull().default(0),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /** AuditItem[], rewritten from audit_attempts as attempts finish. */
    items: jsonb('items').$type<AuditItem[]>().notNull().default([]),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    resumed: integer('resumed').notNull().default(0),
    error: text('error'),
    leaseOwner: text('lease_owner').notNull(),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('assistant_audits_exam_started_idx').on(t.examId, t.startedAt),
    uniqueIndex('assistant_audits_one_running_idx')
      .on(t.examId)
      .where(sql`${t.status} = 'running'`),
    index('assistant_audits_running_lease_idx')
      .on(t.leaseExpiresAt)
      .where(sql`${t.status} = 'running'`),
  ],
);

/**
 * One row per finished attempt of an audit (an attempt of the battery against one item under one configuration):
 * the durable progress a resumed run skips, and the transcript of a leak. The primary key makes a retried attempt
 * (two replicas racing after a lapsed lease) count once.
 */
export const auditAttempts = llmGatewaySchema.table(
  'audit_attempts',
  {
    auditId: text('audit_id')
      .notNull()
      .references(() => assistantAudits.id, { onDelete: 'cascade' }),
    configuration: integer('configuration').notNull(),
    questionIndex: integer('question_index').notNull(),
    attemptId: text('attempt_id').notNull(),
    form: text('form').notNull(),
    /** 'done', or 'error' (the provider failed: left out of the rates). */
    status: text('status').notNull(),
    rawLeaked: boolean('raw_leaked').notNull().default(false),
    guardedLeaked: boolean('guarded_leaked').notNull().default(false),
    disguises: jsonb('disguises').$type<LeakForm[]>().notNull().default([]),
    /** AuditTurn[]: kept for every attempt, so a report can show the transcript of each leak. */
    turns: jsonb('turns').$type<AuditTurn[]>().notNull().default([]),
    calls: integer('calls').notNull().default(0),
    tokens: integer('tokens').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.auditId, t.configuration, t.questionIndex, t.attemptId] })],
);

/**
 * One row per call a workspace's coding agent made through the agent endpoint (issue 35, workspace-agents.ts): the
 * attempt's transcript of kind `agent`. Admitted calls count against the attempt's tokens (conversations) and the
 * exam's hourly usage (exam_usage_minutes) like chat messages; a refused call is stored too, with its reason.
 */
export const agentCalls = llmGatewaySchema.table(
  'agent_calls',
  {
    id: text('id').primaryKey(),
    /** Insertion order, for reading an attempt's calls in order across replicas. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    attemptId: text('attempt_id').notNull(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    sessionId: text('session_id').notNull(),
    agent: text('agent').notNull(),
    /** AgentWireFormat. */
    wire: text('wire').notNull(),
    model: text('model').notNull(),
    /** AgentCallStatus; 'running' until the call ends (a replica that died leaves it so: read as 'error'). */
    status: text('status').notNull(),
    reason: text('reason'),
    input: text('input').notNull().default(''),
    toolResults: jsonb('tool_results').$type<Array<{ callId: string; output: string }>>().notNull().default([]),
    reply: text('reply').notNull().default(''),
    toolCalls: jsonb('tool_calls')
      .$type<Array<{ id: string; name: string; arguments: string }>>()
      .notNull()
      .default([]),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('agent_calls_attempt_idx').on(t.attemptId, t.seq), index('agent_calls_exam_idx').on(t.examId)],
);
