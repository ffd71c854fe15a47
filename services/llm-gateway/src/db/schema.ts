import { bigserial, boolean, index, integer, jsonb, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

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
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_attempt_seq_idx').on(t.attemptId, t.seq),
    index('messages_attempt_role_time_idx').on(t.attemptId, t.role, t.createdAt),
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
