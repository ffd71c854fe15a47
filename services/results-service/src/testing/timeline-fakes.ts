import type { InternalWorkspaceHistory, TranscriptMessage } from '@exam/domain/internal';
import type { AttemptTranscripts, WorkspaceHistory } from '../deps.ts';

/** llm-gateway's attempt transcripts: the messages a test put per attempt, or down when `down` is set. */
export function fakeAttemptTranscripts() {
  const byAttempt = new Map<string, TranscriptMessage[]>();
  const source: AttemptTranscripts & {
    down: boolean;
    calls: string[];
    put(attemptId: string, messages: TranscriptMessage[]): void;
  } = {
    down: false,
    calls: [],
    put: (attemptId, messages) => void byAttempt.set(attemptId, messages),
    async findAttemptTranscript(attemptId) {
      source.calls.push(attemptId);
      if (source.down) throw new Error('connect ECONNREFUSED 127.0.0.1:4003');
      return byAttempt.get(attemptId) ?? [];
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
