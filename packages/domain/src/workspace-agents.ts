import { z } from 'zod';
import type { AiProvider } from './ai-catalogue.ts';
import {
  WORKSPACE_AGENT_IDS,
  WorkspaceAgentSchema,
  type WorkspaceAgent,
  type WorkspaceAi,
  type WorkspaceAiMode,
} from './workspace-ai.ts';

export {
  DEFAULT_WORKSPACE_AI,
  WORKSPACE_AGENT_IDS,
  WORKSPACE_AI_MODES,
  WorkspaceAgentSchema,
  WorkspaceAiModeSchema,
  WorkspaceAiSchema,
  type WorkspaceAgent,
  type WorkspaceAi,
  type WorkspaceAiMode,
} from './workspace-ai.ts';

/**
 * AI in the coding workspace (issue 35, docs/product.md#ai-in-the-workspace): coding agents installed in the
 * workspace image talk to llm-gateway, never to a provider. The orchestrator gives each workspace a short-lived
 * token and base URLs that reach the gateway only through its AI relay (the container's network has no other way
 * out); the gateway speaks the wire formats the agents speak, forwards to the exam's provider with the exam's key,
 * counts every call against the attempt's and the exam's budgets, applies the answer guard when "stop solutions" is
 * on, and stores each call (with its tool calls) in the attempt's transcript, where graders and the timeline see it.
 */

/**
 * The provider wire formats the gateway's agent endpoint speaks, each under the relay's `/v1`:
 * - `openai-chat`: POST /v1/chat/completions (OpenAI's Chat Completions; Groq and OpenAI-compatible servers too);
 * - `openai-responses`: POST /v1/responses (OpenAI's Responses API, which Codex CLI speaks);
 * - `anthropic-messages`: POST /v1/messages (Anthropic's Messages API, which Claude Code speaks).
 */
export const AGENT_WIRE_FORMATS = ['openai-chat', 'openai-responses', 'anthropic-messages'] as const;
export const AgentWireFormatSchema = z.enum(AGENT_WIRE_FORMATS);
export type AgentWireFormat = z.infer<typeof AgentWireFormatSchema>;

/** The wire formats each provider serves natively: the gateway relays a format only to a provider that speaks it. */
export const PROVIDER_WIRE_FORMATS: Record<AiProvider, readonly AgentWireFormat[]> = {
  openai: ['openai-chat', 'openai-responses'],
  groq: ['openai-chat'],
  'openai-compatible': ['openai-chat'],
  anthropic: ['anthropic-messages'],
  // Gemini's generateContent is not relayed (yet): no agent is offered for an exam on Google.
  google: [],
};

/**
 * The agents the workspace images provide (infra/workspaces/vscode/Dockerfile installs them from the npm registry
 * at the versions pinned there). `wire` lists the formats the agent can be configured to speak, preferred first.
 */
export const WORKSPACE_AGENTS = {
  codex: {
    label: 'Codex CLI',
    package: '@openai/codex',
    command: 'codex',
    wire: ['openai-responses'],
    /** How a candidate starts it non-interactively, shown in the workspace's README. */
    example: 'codex exec "add a test for parse()"',
  },
  'claude-code': {
    label: 'Claude Code',
    package: '@anthropic-ai/claude-code',
    command: 'claude',
    wire: ['anthropic-messages'],
    example: 'claude -p "add a test for parse()"',
  },
  'qwen-code': {
    label: 'Qwen Code',
    package: '@qwen-code/qwen-code',
    command: 'qwen',
    wire: ['openai-chat'],
    example: 'qwen -p "add a test for parse()"',
  },
  opencode: {
    label: 'opencode',
    package: 'opencode-ai',
    command: 'opencode',
    wire: ['openai-chat', 'anthropic-messages'],
    example: 'opencode run "add a test for parse()"',
  },
} as const satisfies Record<
  WorkspaceAgent,
  { label: string; package: string; command: string; wire: readonly AgentWireFormat[]; example: string }
>;

/** The format an agent speaks to an exam on this provider, or null when it cannot (the creator is told why). */
export function agentWireFor(agent: WorkspaceAgent, provider: AiProvider): AgentWireFormat | null {
  const served = PROVIDER_WIRE_FORMATS[provider];
  return WORKSPACE_AGENTS[agent].wire.find((w) => served.includes(w)) ?? null;
}

/** The agents an exam on this provider can offer. */
export function agentsFor(provider: AiProvider): WorkspaceAgent[] {
  return WORKSPACE_AGENT_IDS.filter((a) => agentWireFor(a, provider) !== null);
}

export const WORKSPACE_AI_MODE_LABELS: Record<WorkspaceAiMode, string> = {
  none: 'None',
  chat: 'The chat assistant only',
  agent: 'A coding agent in the workspace',
};

/**
 * Why an exam's workspace AI cannot be saved as it is (path relative to the exam body), or null. An agent needs the
 * workspace and the assistant on (its provider, model and key are the assistant's), and must speak a format the
 * assistant's provider serves.
 */
export function workspaceAiIssue(exam: {
  codingWorkspace?: { enabled?: boolean; ai?: WorkspaceAi } | undefined;
  aiSettings?: { enabled?: boolean; provider?: AiProvider } | undefined;
}): { path: Array<string | number>; message: string } | null {
  const ai = exam.codingWorkspace?.ai;
  if (!ai || ai.mode !== 'agent') return null;
  const path = ['codingWorkspace', 'ai', 'agent'];
  if (!ai.agent) return { path, message: 'Choose the agent candidates get in the workspace' };
  if (exam.aiSettings && exam.aiSettings.enabled === false)
    return { path, message: 'Turn the AI assistant on: the agent uses its provider, model and budget' };
  const provider = exam.aiSettings?.provider;
  if (provider && agentWireFor(ai.agent, provider) === null) {
    const names = agentsFor(provider).map((a) => WORKSPACE_AGENTS[a].label);
    return {
      path,
      message: `${WORKSPACE_AGENTS[ai.agent].label} cannot use the assistant's provider (${provider})${
        names.length ? `; choose ${names.join(' or ')}` : '; no agent can use this provider'
      }`,
    };
  }
  return null;
}

/**
 * The token a workspace's agents authenticate with (a JWT signed with the services' JWT secret, kind
 * `workspace-agent`): it names the attempt, so every call is that attempt's, and expires soon after the attempt's
 * deadline. The gateway refuses it for anything but the agent endpoint, and once the attempt is closed.
 */
export const WorkspaceAgentClaimsSchema = z.object({
  kind: z.literal('workspace-agent'),
  sub: z.string(), // attempt id
  examId: z.string(),
  sessionId: z.string(),
  agent: WorkspaceAgentSchema,
});
export type WorkspaceAgentClaims = z.infer<typeof WorkspaceAgentClaimsSchema>;

/** The relay's host name inside a workspace container (an extra hosts entry for the bridge's gateway address). */
export const AGENT_RELAY_HOST = 'exam-ai';

/**
 * The environment a workspace container gets for its agent: every agent's variables point at the relay, carry the
 * workspace token, never a provider key, and name the exam's model. The image's entrypoint writes the agents'
 * own configuration files (Codex's config.toml, opencode's opencode.json) from these.
 */
export function agentEnvironment(opts: {
  relayBaseUrl: string;
  token: string;
  agent: WorkspaceAgent;
  provider: AiProvider;
  model: string;
}): Record<string, string> {
  const base = opts.relayBaseUrl.replace(/\/+$/, '');
  const wire = agentWireFor(opts.agent, opts.provider);
  return {
    EXAM_AGENT: opts.agent,
    EXAM_AGENT_WIRE: wire ?? '',
    EXAM_AI_BASE_URL: base,
    EXAM_AI_MODEL: opts.model,
    OPENAI_BASE_URL: `${base}/v1`,
    OPENAI_API_KEY: opts.token,
    OPENAI_MODEL: opts.model,
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: opts.token,
    ANTHROPIC_MODEL: opts.model,
    ANTHROPIC_SMALL_FAST_MODEL: opts.model,
    // Claude Code: no telemetry, error reporting or update checks (they would be refused anyway).
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
}

/** Characters of a call's input, reply, and each tool call's arguments or output kept in the transcript. */
export const AGENT_TEXT_MAX = 8000;

export const AGENT_CALL_STATUSES = [
  /** Relayed and answered. */
  'ok',
  /** Refused before reaching the provider: a budget, the attempt closed, a format the exam's provider lacks. */
  'refused',
  /** Stopped by the answer guard: the part before the stop reached the agent. */
  'withheld',
  /** The provider failed or the stream broke. */
  'error',
] as const;
export const AgentCallStatusSchema = z.enum(AGENT_CALL_STATUSES);
export type AgentCallStatus = z.infer<typeof AgentCallStatusSchema>;

export const AgentToolCallSchema = z.object({
  /** The provider's id of the call (`call_…`, `toolu_…`). */
  id: z.string(),
  name: z.string(),
  /** The arguments as the model wrote them (JSON text for function tools; a patch or command for custom tools). */
  arguments: z.string(),
});
export type AgentToolCall = z.infer<typeof AgentToolCallSchema>;

/** One call an agent made through the gateway (transcript kind `agent`). */
export const AgentCallSchema = z.object({
  id: z.string(),
  kind: z.literal('agent'),
  attemptId: z.string(),
  agent: WorkspaceAgentSchema,
  wire: AgentWireFormatSchema,
  model: z.string(),
  status: AgentCallStatusSchema,
  /** Why a refused, withheld or failed call ended so. */
  reason: z.string().nullable(),
  /** What the agent sent that was new in this call: the last user message or the tool results, as text. */
  input: z.string(),
  /** The tool results this call carried back to the model (outputs of the previous call's tool calls). */
  toolResults: z.array(z.object({ callId: z.string(), output: z.string() })),
  /** The text the model answered (what reached the agent). */
  reply: z.string(),
  toolCalls: z.array(AgentToolCallSchema),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type AgentCall = z.infer<typeof AgentCallSchema>;

/**
 * Which agent call caused each workspace change. A change's time is the file's modification time as the workspace
 * archive gave it (workspace-orchestrator's file history: whole seconds, kept between the snapshot before and the one
 * that saw it; the gateway asks for a snapshot as each call starts, so one lies between every two calls). An agent
 * edits files by tool calls it runs after the call that asked for them and before its next call, which carries
 * their results: a change from one second before a call that asked for tools began (the time is cut to the second)
 * up to the agent's next call, or with no next call up to `trailMs` after it ended, is that call's work — the latest
 * such call when windows meet. Any other change is the candidate's own. A heuristic over times: an edit of the
 * candidate's own made while the agent's tool ran is counted as the agent's. Pure: results-service applies it when it
 * builds a timeline.
 */
export function attributeAgentChanges(
  changes: ReadonlyArray<{ at: string }>,
  calls: ReadonlyArray<Pick<AgentCall, 'id' | 'startedAt' | 'finishedAt' | 'toolCalls'>>,
  trailMs = 15_000,
): Array<string | null> {
  const SECOND = 1000;
  const ordered = [...calls]
    .map((c) => ({ ...c, start: Date.parse(c.startedAt), end: Date.parse(c.finishedAt ?? c.startedAt) }))
    .sort((a, b) => a.start - b.start);
  const windows = ordered.flatMap((call, i) => {
    if (call.toolCalls.length === 0) return [];
    const next = ordered[i + 1];
    return [{ id: call.id, from: call.start, to: next ? next.start : Math.max(call.end, call.start) + trailMs }];
  });
  // A call that had started by the change's time first; then one that started within the second the time was cut by.
  const find = (at: number, slack: number) => {
    for (let i = windows.length - 1; i >= 0; i--) {
      const w = windows[i]!;
      if (at >= w.from - slack && at <= w.to) return w.id;
    }
    return null;
  };
  return changes.map((change) => {
    const at = Date.parse(change.at);
    return find(at, 0) ?? find(at, SECOND);
  });
}

/** GET /api/llm/attempts/{attemptId}/agent-calls (the exam's creator) and the internal read results-service makes. */
export const AgentCallsResponseSchema = z.object({ calls: z.array(AgentCallSchema) });
export type AgentCallsResponse = z.infer<typeof AgentCallsResponseSchema>;
