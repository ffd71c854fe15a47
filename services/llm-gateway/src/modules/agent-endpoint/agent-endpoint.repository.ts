import { asc, eq } from 'drizzle-orm';
import type { AiBudget } from '@exam/domain/exam-ai';
import type {
  AgentCall,
  AgentCallStatus,
  AgentToolCall,
  AgentWireFormat,
  WorkspaceAgent,
} from '@exam/domain/workspace-agents';
import { rawQuery } from '@exam/server-kit/db';
import type { GatewayDatabase } from '../../db/database.ts';
import { agentCalls } from '../../db/schema.ts';

type Row = typeof agentCalls.$inferSelect;

/** A call still 'running' this long after it started outlived every timeout: its replica stopped. */
const RUNNING_FOR_GOOD_MS = 15 * 60_000;

/** A stored call as the transcript shows it; 'running' is no status of the contract (schema.ts). */
export function toAgentCall(row: Row, now: Date): AgentCall {
  const running = row.status === 'running';
  const stale = running && now.getTime() - row.startedAt.getTime() > RUNNING_FOR_GOOD_MS;
  return {
    id: row.id,
    kind: 'agent',
    attemptId: row.attemptId,
    agent: row.agent as AgentCall['agent'],
    wire: row.wire as AgentCall['wire'],
    model: row.model,
    status: running ? 'error' : (row.status as AgentCallStatus),
    reason: running
      ? stale
        ? 'The call never finished: the gateway replica relaying it stopped'
        : 'The call is still running'
      : row.reason,
    input: row.input,
    toolResults: row.toolResults,
    reply: row.reply,
    toolCalls: row.toolCalls,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** Who made a call and what it asked: the attempt, its exam and owner, the workspace session and agent. */
export type NewAgentCall = {
  id: string;
  attemptId: string;
  examId: string;
  ownerId: string;
  sessionId: string;
  agent: WorkspaceAgent;
  wire: AgentWireFormat;
  model: string;
  input: string;
  toolResults: Array<{ callId: string; output: string }>;
};

/** The budget that refused a call (the attempt's tokens, or the exam's hour), or ok. */
export type AgentAdmission =
  { kind: 'ok' } | { kind: 'tokens' } | { kind: 'exam_requests' | 'exam_tokens'; retryAt: Date };

const ADMIT_AGENT_CALL = `select * from llm_gateway.admit_agent_call(
  $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::jsonb,
  $11::timestamptz, $12::integer, $13::integer, $14::bigint)`;
const FINISH_AGENT_CALL = `select llm_gateway.finish_agent_call(
  $1::text, $2::text, $3::text, $4::text, $5::jsonb, $6::integer, $7::integer, $8::timestamptz) as finished`;

export function createAgentCallRepository({ db }: GatewayDatabase) {
  return {
    /**
     * Admits a call against the attempt's tokens and the exam's hour and stores it, running or refused, in one round
     * trip (src/db/functions/admit_agent_call.sql, under the same locks as a chat message's admission).
     */
    async admit(call: NewAgentCall, budget: AiBudget, now: Date): Promise<AgentAdmission> {
      const [row] = await rawQuery<{ outcome: string; retry_at: string | Date | null }>(db, ADMIT_AGENT_CALL, [
        call.id,
        call.attemptId,
        call.examId,
        call.ownerId,
        call.sessionId,
        call.agent,
        call.wire,
        call.model,
        call.input,
        JSON.stringify(call.toolResults),
        now.toISOString(),
        budget.tokensPerAttempt,
        budget.examRequestsPerHour,
        budget.examTokensPerHour,
      ]);
      if (!row) throw new Error('admit_agent_call returned no row');
      if (row.outcome === 'tokens') return { kind: 'tokens' };
      if (row.outcome === 'exam_requests' || row.outcome === 'exam_tokens')
        return { kind: row.outcome, retryAt: new Date(row.retry_at ?? now.getTime() + 60_000) };
      return { kind: 'ok' };
    },

    /** Stores a call refused before any budget was asked (the attempt closed, the exam's settings, a bad body). */
    async insertRefused(call: NewAgentCall, reason: string, now: Date): Promise<void> {
      await db.insert(agentCalls).values({ ...call, status: 'refused', reason, startedAt: now, finishedAt: now });
    },

    /** Ends a running call and counts its tokens (src/db/functions/finish_agent_call.sql). */
    async finish(
      id: string,
      end: {
        status: Exclude<AgentCallStatus, 'refused'>;
        reason: string | null;
        reply: string;
        toolCalls: AgentToolCall[];
        inputTokens: number;
        outputTokens: number;
      },
      now: Date,
    ): Promise<boolean> {
      const [row] = await rawQuery<{ finished: boolean }>(db, FINISH_AGENT_CALL, [
        id,
        end.status,
        end.reason,
        end.reply,
        JSON.stringify(end.toolCalls),
        end.inputTokens,
        end.outputTokens,
        now.toISOString(),
      ]);
      return row?.finished === true;
    },

    /** An attempt's calls in the order they were made, and the exam's owner (undefined when it made none). */
    async listOfAttempt(
      attemptId: string,
      now: Date,
    ): Promise<{ ownerId: string | undefined; examId: string | undefined; calls: AgentCall[] }> {
      const rows = await db
        .select()
        .from(agentCalls)
        .where(eq(agentCalls.attemptId, attemptId))
        .orderBy(asc(agentCalls.seq));
      return { ownerId: rows[0]?.ownerId, examId: rows[0]?.examId, calls: rows.map((row) => toAgentCall(row, now)) };
    },
  };
}
export type AgentCallRepository = ReturnType<typeof createAgentCallRepository>;
