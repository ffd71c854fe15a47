import { createInternalClient } from '@exam/server-kit/internal-client';
import type { WorkspaceSnapshots } from '../deps.ts';

/**
 * workspace-orchestrator's `POST /internal/attempts/{id}/workspace-snapshot`: the gateway asks for one when each agent
 * call starts, so the timeline can tell which call's tool calls changed which files (workspace-agents.ts
 * attributeAgentChanges). Answers once the orchestrator answered; a failure rejects and the caller only logs it.
 */
export function httpWorkspaceSnapshots(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs: number },
): WorkspaceSnapshots & { close(): void } {
  const request = createInternalClient(baseUrl, internalToken, { timeoutMs: opts.timeoutMs });
  return {
    async requestSnapshot(attemptId) {
      const { status } = await request.text(`/internal/attempts/${encodeURIComponent(attemptId)}/workspace-snapshot`, {
        method: 'POST',
        body: {},
      });
      if (status < 200 || status >= 300) throw new Error(`workspace-orchestrator answered ${status} to the snapshot`);
    },
    close: () => request.close(),
  };
}
