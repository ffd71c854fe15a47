import { AppError, statusOfErrorCode, type ErrorCode, type Issue } from '@exam/domain/errors';
import type { AgentWireFormat } from '@exam/domain/workspace-agents';

/**
 * A call the agent endpoint refuses or cannot complete, answered in the agent's own wire format. `retryAfterSeconds`
 * is sent as Retry-After (the exam's hourly budget frees up); `final` tells the client not to retry at all (the
 * attempt's tokens are spent): `x-should-retry: false`, which the OpenAI and Anthropic SDKs obey, and OpenAI's
 * `insufficient_quota` code, which Codex CLI does not retry.
 */
export class AgentRefusal extends AppError {
  /** The status sent: the code's, or a provider failure's own (agentStatusOf). */
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;
  readonly final: boolean;
  constructor(
    code: ErrorCode,
    message: string,
    opts: { retryAfterSeconds?: number; final?: boolean; issues?: Issue[]; status?: number } = {},
  ) {
    super(code, message, opts.issues);
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.final = opts.final ?? false;
    this.status = opts.status ?? statusOfErrorCode[code];
  }
}

/** How each wire format names an error of a status: OpenAI's `type` and `code`, Anthropic's `type`. */
function openAiKind(status: number, final: boolean): { type: string; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 403) return { type: 'permission_error', code: 'permission_denied' };
  if (status === 404) return { type: 'invalid_request_error', code: 'not_found' };
  if (status === 429)
    return final
      ? { type: 'insufficient_quota', code: 'insufficient_quota' }
      : { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

function anthropicKind(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** An error body as the wire format's own clients read it. */
export function wireErrorBody(wire: AgentWireFormat, status: number, message: string, final = false): unknown {
  if (wire === 'anthropic-messages') return { type: 'error', error: { type: anthropicKind(status), message } };
  const { type, code } = openAiKind(status, final);
  return { error: { message, type, param: null, code } };
}

/** The message a provider's error body carries, in either family's shape; the start of the text otherwise. */
export function providerErrorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'object' && typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: the raw start of the body
  }
  return text.slice(0, 300);
}

/**
 * The status the agent gets for a provider's failure: its own request's faults pass through (a malformed tool
 * schema is the agent's to fix), the provider's rate limit and overload as such; a refused key is the exam's
 * configuration, not the agent's, so it becomes 502 like any other provider failure.
 */
export function agentStatusOf(providerStatus: number): number {
  if ([400, 404, 413, 422, 429].includes(providerStatus)) return providerStatus;
  if (providerStatus === 503 || providerStatus === 529) return 503;
  return 502;
}

export const AgentMessages = {
  examGone: 'This exam no longer exists.',
  notAgentExam: "This exam does not allow a coding agent in the workspace (its workspace AI setting is not 'agent').",
  otherAgent: (agent: string) => `This exam's workspace agent is ${agent}; this token is for another agent.`,
  wireNotServed: (wire: string, provider: string) =>
    `This exam's AI provider (${provider}) does not serve the ${wire} format.`,
  providerKeyRefused: "The exam's AI provider refused the gateway's request; ask the exam's creator to check the key.",
  providerFailed: "The exam's AI provider could not be reached or failed.",
  interrupted: 'The agent closed the connection before the reply ended.',
} as const;
