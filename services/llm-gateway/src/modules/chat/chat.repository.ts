import { and, asc, desc, eq, gte, inArray, lt, not, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AiBudget } from '@exam/domain/exam-ai';
import type { TranscriptMessage } from '@exam/domain/internal';
import type { AiSpend } from '@exam/domain/llm';
import type { PlantedTurn } from '@exam/domain/planted-errors';
import type { GatewayDatabase } from '../../db/database.ts';
import { rawQuery } from '@exam/server-kit/db';
import { conversations, examUsage, examUsageMinutes, messages, type StoredFile } from '../../db/schema.ts';

type MessageRow = typeof messages.$inferSelect;

export const toTranscriptMessage = (row: MessageRow): TranscriptMessage => ({
  id: row.id,
  role: row.role,
  content: row.content,
  questionIndex: row.questionIndex,
  isError: row.isError,
  isPartial: row.isPartial,
  isWithheld: row.isWithheld,
  withheldQuestionIndex: row.withheldQuestionIndex,
  files: row.files,
  planted: row.planted ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** A message as its candidate reads it: without what was planted (shown to them only with their released result). */
export const forCandidate = ({ planted: _planted, ...message }: TranscriptMessage): TranscriptMessage => message;

export type ConversationKey = { attemptId: string; examId: string; ownerId: string };
export type NewUserMessage = {
  id: string;
  content: string;
  attachmentText: string;
  files: StoredFile[];
  questionIndex: number | null;
  /** ChatRequest.clientMessageId, and the try whose reply may be stored (null without a clientMessageId). */
  clientMessageId: string | null;
  tryId: string | null;
};
export type HistoryMessage = { role: 'user' | 'assistant'; content: string; attachmentText: string };
type AdmitRow = {
  outcome: string;
  oldest_in_window: string | Date | null;
  history: HistoryMessage[] | string | null;
  retry_at: string | Date | null;
  seen_message_id: string | null;
  turn: number | null;
};
/**
 * history: the messages the provider should see before this one, oldest first. turn: how many earlier user
 * messages of the attempt were about the message's question (null without a questionIndex), the planted-error
 * decision's turn number. The exam-wide refusals carry when the sliding hour will have room again.
 */
export type Admission =
  | { kind: 'ok'; history: HistoryMessage[]; turn: number | null }
  /** The message was sent before (same clientMessageId): messageId is the stored one; nothing was counted. */
  | { kind: 'seen'; messageId: string; turn: number | null }
  | { kind: 'messages'; oldestInWindow: Date }
  | { kind: 'tokens' }
  | { kind: 'exam_requests' | 'exam_tokens'; retryAt: Date };
export type NewAssistantMessage = {
  id: string;
  attemptId: string;
  content: string;
  questionIndex: number | null;
  isError: boolean;
  isPartial: boolean;
  /** Set when the guardrail stopped the reply: the question whose key it was about to give away. */
  withheldQuestionIndex: number | null;
  inputTokens: number;
  outputTokens: number;
  /** The message's clientMessageId and the try that generated this reply (null without a clientMessageId). */
  clientMessageId: string | null;
  tryId: string | null;
  /** On a reply asked to carry a planted error: which, and whether it did (absent or null on any other reply). */
  planted?: PlantedTurn | null;
};

/** The minute the exam-wide budget's sliding hour starts at (src/db/functions/admit_user_message.sql). */
export const hourWindowStart = (now: Date) => new Date(Math.floor(now.getTime() / 60_000) * 60_000 - 59 * 60_000);

type SpendRow = {
  requests: number;
  tokens: number;
  refusedExamRequests: number;
  refusedExamTokens: number;
  refusedAttemptMessages: number;
  refusedAttemptTokens: number;
};
const toSpend = (row: Partial<SpendRow> | undefined): AiSpend => ({
  requests: Number(row?.requests ?? 0),
  tokens: Number(row?.tokens ?? 0),
  refusals: {
    examRequests: Number(row?.refusedExamRequests ?? 0),
    examTokens: Number(row?.refusedExamTokens ?? 0),
    attemptMessages: Number(row?.refusedAttemptMessages ?? 0),
    attemptTokens: Number(row?.refusedAttemptTokens ?? 0),
  },
});

// postgres.js answers an array of rows, PGlite an object with rows.
const rowsOf = <T>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

// The two statements of every chat, prepared once per connection (server-kit's rawQuery): the admission before the
// upstream call and the reply after it.
const ADMIT_USER_MESSAGE = `select * from llm_gateway.admit_user_message(
  $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::integer, $9::timestamptz, $10::timestamptz,
  $11::integer, $12::integer, $13::integer, $14::integer, $15::bigint, $16::text, $17::text)`;
const STORE_ASSISTANT_MESSAGE = `select llm_gateway.store_assistant_message(
  $1::text, $2::text, $3::text, $4::integer, $5::boolean, $6::boolean, $7::integer, $8::integer, $9::timestamptz,
  $10::boolean, $11::integer, $12::text, $13::text, $14::jsonb) as stored`;

export function createChatRepository({ db }: GatewayDatabase) {
  return {
    /**
     * Checks the attempt's budgets and the exam-wide one, reads the last `historyLimit` messages and stores the
     * user's message, in one round trip (src/db/functions/admit_user_message.sql, holds the exam's and the
     * conversation's row locks while it counts; a refusal is counted on the exam's counters).
     */
    async admitUserMessage(
      key: ConversationKey,
      message: NewUserMessage,
      budget: AiBudget,
      historyLimit: number,
      now: Date,
    ): Promise<Admission> {
      const windowStart = new Date(now.getTime() - budget.windowMinutes * 60_000);
      const [row] = await rawQuery<AdmitRow>(db, ADMIT_USER_MESSAGE, [
        key.attemptId,
        key.examId,
        key.ownerId,
        message.id,
        message.content,
        message.attachmentText,
        JSON.stringify(message.files),
        message.questionIndex,
        now.toISOString(),
        windowStart.toISOString(),
        budget.messagesPerWindow,
        budget.tokensPerAttempt,
        historyLimit,
        budget.examRequestsPerHour,
        budget.examTokensPerHour,
        message.clientMessageId,
        message.tryId,
      ]);
      if (!row) throw new Error('admit_user_message returned no row');
      const turn = row.turn === null || row.turn === undefined ? null : Number(row.turn);
      if (row.outcome === 'seen' && row.seen_message_id) return { kind: 'seen', messageId: row.seen_message_id, turn };
      if (row.outcome === 'tokens') return { kind: 'tokens' };
      if (row.outcome === 'exam_requests' || row.outcome === 'exam_tokens')
        return { kind: row.outcome, retryAt: new Date(row.retry_at ?? now.getTime() + 60_000) };
      if (row.outcome === 'messages')
        return { kind: 'messages', oldestInWindow: new Date(row.oldest_in_window ?? now) };
      // PGlite hands jsonb back parsed; a text value is parsed here so both drivers answer the same.
      const history =
        typeof row.history === 'string' ? (JSON.parse(row.history) as HistoryMessage[]) : (row.history ?? []);
      return { kind: 'ok', history, turn };
    },

    /** Takes back an admitted message (src/db/functions/retract_user_message.sql): its attempt turned out to be closed. */
    async retractUserMessage(messageId: string): Promise<void> {
      await rawQuery(db, 'select llm_gateway.retract_user_message($1::text)', [messageId]);
    },

    /**
     * Stores the reply and adds its tokens to the attempt's total and the exam's counters, in one statement
     * (src/db/functions/store_assistant_message.sql). With a clientMessageId the reply replaces what earlier tries of
     * the message stored, and only the latest try stores one: false when a newer try has taken the message over
     * (its tokens are counted all the same).
     */
    async insertAssistantMessage(m: NewAssistantMessage, now: Date): Promise<boolean> {
      const [row] = await rawQuery<{ stored: boolean }>(db, STORE_ASSISTANT_MESSAGE, [
        m.id,
        m.attemptId,
        m.content,
        m.questionIndex,
        m.isError,
        m.isPartial,
        m.inputTokens,
        m.outputTokens,
        now.toISOString(),
        m.withheldQuestionIndex !== null,
        m.withheldQuestionIndex,
        m.clientMessageId,
        m.tryId,
        m.planted ? JSON.stringify(m.planted) : null,
      ]);
      return row?.stored === true;
    },

    /** The reply stored for a message sent with this clientMessageId, if any (at most one: each replaces the last). */
    async findReplyOf(attemptId: string, clientMessageId: string): Promise<MessageRow | undefined> {
      const [row] = await db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.attemptId, attemptId),
            eq(messages.role, 'assistant'),
            eq(messages.clientMessageId, clientMessageId),
          ),
        )
        .orderBy(desc(messages.seq))
        .limit(1);
      return row;
    },

    /**
     * Makes `tryId` the try of a stored user message whose reply may be stored (a retry takes over from an earlier
     * try that never completed), and reads the `historyLimit` messages before it, oldest first.
     */
    async takeOverMessage(messageId: string, tryId: string, historyLimit: number): Promise<HistoryMessage[]> {
      const [claimed] = await db
        .update(messages)
        .set({ tryId })
        .where(eq(messages.id, messageId))
        .returning({ seq: messages.seq, attemptId: messages.attemptId });
      if (!claimed) return [];
      const rows = await db
        .select({ role: messages.role, content: messages.content, attachmentText: messages.attachmentText })
        .from(messages)
        .where(and(eq(messages.attemptId, claimed.attemptId), lt(messages.seq, claimed.seq), not(messages.isError)))
        .orderBy(desc(messages.seq))
        .limit(Math.max(historyLimit, 0));
      return rows.reverse();
    },

    /** The exam's counters: all time, and summed over the sliding hour that ends at `now`. */
    async examSpend(examId: string, now: Date): Promise<{ lastHour: AiSpend; total: AiSpend }> {
      const sum = (column: AnyPgColumn) => sql<number>`coalesce(sum(${column}), 0)`;
      const [[total], [lastHour]] = await Promise.all([
        db.select().from(examUsage).where(eq(examUsage.examId, examId)).limit(1),
        db
          .select({
            requests: sum(examUsageMinutes.requests),
            tokens: sum(examUsageMinutes.tokens),
            refusedExamRequests: sum(examUsageMinutes.refusedExamRequests),
            refusedExamTokens: sum(examUsageMinutes.refusedExamTokens),
            refusedAttemptMessages: sum(examUsageMinutes.refusedAttemptMessages),
            refusedAttemptTokens: sum(examUsageMinutes.refusedAttemptTokens),
          })
          .from(examUsageMinutes)
          .where(and(eq(examUsageMinutes.examId, examId), gte(examUsageMinutes.minute, hourWindowStart(now)))),
      ]);
      return { lastHour: toSpend(lastHour), total: toSpend(total) };
    },

    /**
     * Counts a creator's Test Assistant message against `limit` per window (src/db/functions/admit_test_chat.sql);
     * answers the oldest message of the window when the creator is over the limit.
     */
    async admitTestChat(
      creatorId: string,
      limit: number,
      windowMs: number,
      now: Date,
    ): Promise<{ admitted: true } | { admitted: false; oldestInWindow: Date }> {
      const windowStart = new Date(now.getTime() - windowMs);
      const result = await db.execute(
        sql`select * from llm_gateway.admit_test_chat(${creatorId}::text, ${now.toISOString()}::timestamptz, ${windowStart.toISOString()}::timestamptz, ${limit}::integer)`,
      );
      const row = rowsOf<{ admitted: boolean; oldest_in_window: string | Date | null }>(result)[0];
      if (!row) throw new Error('admit_test_chat returned no row');
      return row.admitted
        ? { admitted: true }
        : { admitted: false, oldestInWindow: new Date(row.oldest_in_window ?? now) };
    },

    async findConversation(attemptId: string) {
      const [row] = await db.select().from(conversations).where(eq(conversations.attemptId, attemptId)).limit(1);
      return row;
    },

    async listMessages(attemptId: string): Promise<TranscriptMessage[]> {
      const rows = await db.select().from(messages).where(eq(messages.attemptId, attemptId)).orderBy(asc(messages.seq));
      return rows.map(toTranscriptMessage);
    },

    async listTranscriptsOfExam(examId: string): Promise<{ attemptId: string; messages: TranscriptMessage[] }[]> {
      const owned = await db
        .select({ attemptId: conversations.attemptId })
        .from(conversations)
        .where(eq(conversations.examId, examId))
        .orderBy(asc(conversations.createdAt));
      if (!owned.length) return [];
      const ids = owned.map((c) => c.attemptId);
      const rows = await db.select().from(messages).where(inArray(messages.attemptId, ids)).orderBy(asc(messages.seq));
      const byAttempt = new Map(ids.map((id) => [id, [] as TranscriptMessage[]]));
      for (const row of rows) byAttempt.get(row.attemptId)?.push(toTranscriptMessage(row));
      return ids.map((attemptId) => ({ attemptId, messages: byAttempt.get(attemptId) ?? [] }));
    },
  };
}
export type ChatRepository = ReturnType<typeof createChatRepository>;
