import { z } from 'zod';

/**
 * The exam's "AI in the workspace" setting, on its own so the candidate's pages (which parse exams) carry only this
 * and not the agents' catalogue, wire formats and rules (workspace-agents.ts, which re-exports all of it).
 */

/** The agents the workspace images provide (workspace-agents.ts WORKSPACE_AGENTS describes each). */
export const WORKSPACE_AGENT_IDS = ['codex', 'claude-code', 'qwen-code', 'opencode'] as const;
export const WorkspaceAgentSchema = z.enum(WORKSPACE_AGENT_IDS);
export type WorkspaceAgent = z.infer<typeof WorkspaceAgentSchema>;

/**
 * "AI in the workspace": `none` (no AI in the workspace; the assistant panel follows the assistant's own setting),
 * `chat` (the assistant panel only: what exams had before), or `agent` (the chosen agent runs in the workspace
 * terminal against the gateway, with the exam's provider and model; the panel stays as configured).
 */
export const WORKSPACE_AI_MODES = ['none', 'chat', 'agent'] as const;
export const WorkspaceAiModeSchema = z.enum(WORKSPACE_AI_MODES);
export type WorkspaceAiMode = z.infer<typeof WorkspaceAiModeSchema>;

export const WorkspaceAiSchema = z.object({
  mode: WorkspaceAiModeSchema.default('chat'),
  /** With mode `agent`: which agent. */
  agent: WorkspaceAgentSchema.nullable().default(null),
});
export type WorkspaceAi = z.infer<typeof WorkspaceAiSchema>;
export const DEFAULT_WORKSPACE_AI: WorkspaceAi = { mode: 'chat', agent: null };
