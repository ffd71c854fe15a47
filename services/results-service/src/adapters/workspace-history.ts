import { InternalWorkspaceHistorySchema } from '@exam/domain/internal';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { WorkspaceHistory } from '../deps.ts';

/**
 * Reads workspace-orchestrator's GET /internal/attempts/{attemptId}/file-history: the workspace files' snapshots,
 * for the attempt's timeline. 404 (no workspace was ever started for the attempt) is an empty history.
 */
export function createHttpWorkspaceHistory(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): WorkspaceHistory & { close(): void } {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async fileHistory(attemptId) {
      const { status, body } = await request(`/internal/attempts/${encodeURIComponent(attemptId)}/file-history`);
      if (status === 404) return { files: [], capped: false };
      const what = `the workspace file history of attempt ${attemptId}`;
      if (status !== 200) throw unexpectedStatus('workspace-orchestrator', status, what);
      return parseUpstream('workspace-orchestrator', InternalWorkspaceHistorySchema, body, 'a file history');
    },
    close: () => request.close(),
  };
}
