import { AI_CATALOGUE } from '@exam/domain/ai-catalogue';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { workspaceAiOf } from '@exam/domain/exam';
import type { InternalAttempt, InternalExam } from '@exam/domain/internal';
import { LlmMessages } from '@exam/domain/llm';
import {
  PROVIDER_WIRE_FORMATS,
  WORKSPACE_AGENTS,
  type AgentWireFormat,
  type WorkspaceAgentClaims,
} from '@exam/domain/workspace-agents';
import type { Deps } from '../../deps.ts';
import type { AssistantTarget } from '../chat/assistant-config.ts';
import { guardedKeys, guardedOptions, targetOf } from '../chat/prepared-chat.ts';
import type { AgentCallRepository, NewAgentCall } from './agent-endpoint.repository.ts';
import type { GuardKeys } from './guarded-relay.ts';
import { AgentMessages, AgentRefusal } from './wire-errors.ts';
import { AgentBodySchemas, callInputOf, type AgentBody } from './wire-requests.ts';

export type AgentServiceOptions = Parameters<typeof targetOf>[1];

/** An admitted call, ready to relay: the exam's provider, model and key, the body as the agent sent it. */
export type PreparedAgentCall = {
  call: NewAgentCall;
  target: AssistantTarget;
  body: AgentBody;
  guard: GuardKeys;
};

/** Why a call was refused, as stored and as the agent is told. */
const refusal = (message: string) => new AgentRefusal(ErrorCode.FORBIDDEN, message);

/**
 * The exam, its assistant and the attempt as one call of a workspace agent needs them, refusing what the exam does
 * not allow: the attempt open (as the chat checks it), the assistant on and complete, the exam's workspace AI an
 * agent and this token's agent, and a wire format the exam's provider serves.
 */
async function allowedCall(
  deps: Pick<Deps, 'exams' | 'attempts' | 'baseUrlGuard'>,
  opts: AgentServiceOptions,
  claims: WorkspaceAgentClaims,
  wire: AgentWireFormat,
): Promise<
  | { exam: InternalExam; target: AssistantTarget; attempt: InternalAttempt }
  | { exam: InternalExam; refused: AgentRefusal }
> {
  const [exam, attempt] = await Promise.all([
    deps.exams.findExam(claims.examId, { recent: true }),
    deps.attempts.findAttempt(claims.sub),
  ]);
  if (!exam) throw refusal(AgentMessages.examGone);
  if (!attempt || !attempt.isOpen || attempt.examId !== claims.examId)
    return { exam, refused: refusal(LlmMessages.attemptClosed) };
  let target: AssistantTarget;
  try {
    target = await targetOf(exam, opts, deps.baseUrlGuard);
  } catch (err) {
    if (err instanceof AppError) return { exam, refused: refusal(err.message) };
    throw err;
  }
  const ai = workspaceAiOf(exam);
  if (ai.mode !== 'agent' || !ai.agent) return { exam, refused: refusal(AgentMessages.notAgentExam) };
  if (ai.agent !== claims.agent)
    return { exam, refused: refusal(AgentMessages.otherAgent(WORKSPACE_AGENTS[ai.agent].label)) };
  if (!PROVIDER_WIRE_FORMATS[target.provider].includes(wire))
    return { exam, refused: refusal(AgentMessages.wireNotServed(wire, AI_CATALOGUE[target.provider].label)) };
  if (attempt.assistant?.available === false)
    return { exam, refused: refusal(attempt.assistant.reason ?? LlmMessages.notEnabled) };
  return { exam, target, attempt };
}

export function createAgentService(
  repo: AgentCallRepository,
  deps: Pick<Deps, 'exams' | 'attempts' | 'baseUrlGuard' | 'clock' | 'ids' | 'workspaceSnapshots'>,
  opts: AgentServiceOptions,
) {
  return {
    /**
     * One call, checked and admitted before anything reaches the provider. A refusal is stored as a `refused` call
     * (when the exam is known) and thrown as an AgentRefusal the route answers in the agent's wire format.
     */
    async prepareCall(claims: WorkspaceAgentClaims, wire: AgentWireFormat, raw: unknown): Promise<PreparedAgentCall> {
      const now = deps.clock.now();
      const allowed = await allowedCall(deps, opts, claims, wire);
      const { exam } = allowed;
      const parsed = AgentBodySchemas[wire].safeParse(raw);
      const body = (parsed.success ? parsed.data : (raw ?? {})) as AgentBody;
      const call: NewAgentCall = {
        id: deps.ids.next(),
        attemptId: claims.sub,
        examId: exam.id,
        ownerId: exam.ownerId,
        sessionId: claims.sessionId,
        agent: claims.agent,
        wire,
        model: exam.aiSettings.model.trim(),
        ...(parsed.success ? callInputOf(wire, body) : { input: '', toolResults: [] }),
      };
      if ('refused' in allowed) {
        await repo.insertRefused(call, allowed.refused.message, now);
        throw allowed.refused;
      }
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message }));
        const message = `${issues[0]?.path}: ${issues[0]?.message}`;
        await repo.insertRefused(call, message, now);
        throw new AgentRefusal(ErrorCode.VALIDATION, message, { issues });
      }
      const budget = exam.aiSettings.budget;
      const admission = await repo.admit(call, budget, now);
      if (admission.kind === 'tokens')
        throw new AgentRefusal(ErrorCode.RATE_LIMITED, LlmMessages.tokenLimit, { final: true });
      if (admission.kind !== 'ok') {
        const waitMs = admission.retryAt.getTime() - now.getTime();
        throw new AgentRefusal(
          ErrorCode.RATE_LIMITED,
          LlmMessages.examBudget(Math.max(1, Math.ceil(waitMs / 60_000))),
          {
            retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
          },
        );
      }
      // The candidate's calculated keys too: an agent in their workspace sees their values.
      const keys = { keys: guardedKeys(exam, null, allowed.attempt), options: guardedOptions(exam, null) };
      return {
        call,
        target: allowed.target,
        body,
        guard: keys.keys.length || keys.options.length ? keys : undefined,
      };
    },

    /** The model the exam's agent is given, whatever it asks for (GET /v1/models). */
    async modelOf(claims: WorkspaceAgentClaims): Promise<string> {
      const exam = await deps.exams.findExam(claims.examId, { recent: true });
      if (!exam) throw refusal(AgentMessages.examGone);
      return exam.aiSettings.model.trim();
    },
  };
}
export type AgentService = ReturnType<typeof createAgentService>;
