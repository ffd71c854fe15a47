import { AppError, ErrorCode } from '@exam/domain/errors';
import { CollectedFilesSchema, type WorkspaceFile } from '@exam/domain/internal';
import { createInternalClient } from '@exam/server-kit/internal-client';
import type { WorkspaceFiles } from '../deps.ts';

/** Asks workspace-orchestrator for the files in a candidate's workspace (POST /internal/attempts/{id}/collect). */
export function createHttpWorkspaceFiles(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): WorkspaceFiles {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async collect(attemptId: string): Promise<Record<string, WorkspaceFile>> {
      const { status, body } = await request<unknown>(`/internal/attempts/${encodeURIComponent(attemptId)}/collect`, {
        method: 'POST',
        body: {},
      });
      if (status !== 200) throw new AppError(ErrorCode.UPSTREAM, `workspace-orchestrator answered ${status}`);
      return CollectedFilesSchema.parse(body).files;
    },
  };
}
