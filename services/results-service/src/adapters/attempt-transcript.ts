import { InternalAttemptTranscriptSchema } from '@exam/domain/internal';
import { AgentCallsResponseSchema } from '@exam/domain/workspace-agents';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { AttemptTranscripts } from '../deps.ts';

/**
 * Reads llm-gateway's GET /internal/attempts/{attemptId}/transcript (one attempt's conversation) and
 * GET /internal/attempts/{attemptId}/agent-calls (the workspace agent's calls), for its timeline.
 */
export function createHttpAttemptTranscripts(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): AttemptTranscripts & { close(): void } {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async findAttemptTranscript(attemptId) {
      const { status, body } = await request(`/internal/attempts/${encodeURIComponent(attemptId)}/transcript`);
      if (status !== 200) throw unexpectedStatus('llm-gateway', status, `the transcript of attempt ${attemptId}`);
      return parseUpstream('llm-gateway', InternalAttemptTranscriptSchema, body, 'a transcript').messages;
    },
    async findAgentCalls(attemptId) {
      const { status, body } = await request(`/internal/attempts/${encodeURIComponent(attemptId)}/agent-calls`);
      if (status !== 200) throw unexpectedStatus('llm-gateway', status, `the agent calls of attempt ${attemptId}`);
      return parseUpstream('llm-gateway', AgentCallsResponseSchema, body, "an attempt's agent calls").calls;
    },
    close: () => request.close(),
  };
}
