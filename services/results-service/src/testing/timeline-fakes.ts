import type { InternalWorkspaceHistory, TranscriptMessage } from '@exam/domain/internal';
import type { AgentCall } from '@exam/domain/workspace-agents';
import type { AttemptTranscripts, WorkspaceHistory } from '../deps.ts';

/**
 * llm-gateway's attempt transcripts and agent calls: what a test put per attempt, or down when `down` is set.
 * `agentCallReads` lists the attempts whose agent calls were asked for.
 */
export function fakeAttemptTranscripts() {
  const byAttempt = new Map<string, TranscriptMessage[]>();
  const agentCallsByAttempt = new Map<string, AgentCall[]>();
  const source: AttemptTranscripts & {
    down: boolean;
    calls: string[];
    agentCallReads: string[];
    put(attemptId: string, messages: TranscriptMessage[]): void;
    putAgentCalls(attemptId: string, calls: AgentCall[]): void;
  } = {
    down: false,
    calls: [],
    agentCallReads: [],
    put: (attemptId, messages) => void byAttempt.set(attemptId, messages),
    putAgentCalls: (attemptId, calls) => void agentCallsByAttempt.set(attemptId, calls),
    async findAttemptTranscript(attemptId) {
      source.calls.push(attemptId);
      if (source.down) throw new Error('connect ECONNREFUSED 127.0.0.1:4003');
      return byAttempt.get(attemptId) ?? [];
    },
    async findAgentCalls(attemptId) {
      source.agentCallReads.push(attemptId);
      if (source.down) throw new Error('connect ECONNREFUSED 127.0.0.1:4003');
      return agentCallsByAttempt.get(attemptId) ?? [];
    },
  };
  return source;
}

/** workspace-orchestrator's file history: what a test put per attempt, or down when `down` is set. */
export function fakeWorkspaceHistory() {
  const byAttempt = new Map<string, InternalWorkspaceHistory>();
  const source: WorkspaceHistory & {
    down: boolean;
    calls: string[];
    put(attemptId: string, history: InternalWorkspaceHistory): void;
  } = {
    down: false,
    calls: [],
    put: (attemptId, history) => void byAttempt.set(attemptId, history),
    async fileHistory(attemptId) {
      source.calls.push(attemptId);
      if (source.down) throw new Error('connect ECONNREFUSED 127.0.0.1:4004');
      return byAttempt.get(attemptId) ?? { files: [], capped: false };
    },
  };
  return source;
}
