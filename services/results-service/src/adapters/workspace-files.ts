import { CollectedFilesSchema, type CollectFilesRequest, type WorkspaceFile } from '@exam/domain/internal';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { WorkspaceFiles } from '../deps.ts';

/** Asks workspace-orchestrator for the files in a candidate's workspace (POST /internal/attempts/{id}/collect). */
export function createHttpWorkspaceFiles(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): WorkspaceFiles {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async collect(attemptId: string, collectRequest?: CollectFilesRequest): Promise<Record<string, WorkspaceFile>> {
      const { status, body } = await request(`/internal/attempts/${encodeURIComponent(attemptId)}/collect`, {
        method: 'POST',
        body: collectRequest ?? {},
      });
      const what = `the workspace files of attempt ${attemptId}`;
      if (status !== 200) throw unexpectedStatus('workspace-orchestrator', status, what);
      return parseUpstream('workspace-orchestrator', CollectedFilesSchema, body, 'workspace files').files;
    },
  };
}
