import { WORKSPACE_FOLDER } from '@exam/domain/workspace';
import { ApiError } from '../../../lib/api-client.ts';

/** The panel's timings. */
export const CONNECTING_MS = 3000;
export const FIRST_START_SECONDS = 30;
/** The orchestrator gives up after its own start timeout (30 s by default); this only bounds a hung request. */
export const CREATE_TIMEOUT_MS = 60_000;
export const STATUS_POLL_MS = 1000;
/** Well inside the proxy cookie's 30-minute lifetime and the 30-minute idle reaper. */
export const RENEW_ACCESS_MS = 5 * 60_000;
/** How often a connected panel asks whether the workspace's disk is full (the orchestrator measures it then). */
export const STORAGE_POLL_MS = 30_000;

/**
 * The frame's address: the editor on WORKSPACE_ORIGIN (its own origin, never the exam page's) opened on the
 * workspace folder (code-server's `folder` parameter). The launch token in `editorUrl` is exchanged by the
 * orchestrator for its cookie on that origin and removed from the frame's URL by a redirect. `openFile`, a path
 * inside the workspace folder (the question the candidate is on), is opened in the editor through the VS Code web
 * workbench's `payload` parameter (its `openFile` entry, a vscode-remote URI; the workbench reads it when it starts,
 * as `code --goto` does on the desktop), so the workspace opens on the file that is graded.
 */
export function editorSrc(editorUrl: string, openFile?: string | null): string {
  const url = new URL(editorUrl);
  url.searchParams.set('folder', WORKSPACE_FOLDER);
  if (openFile) {
    const path = `${WORKSPACE_FOLDER}/${openFile.replace(/^(\.\/)+/, '')}`;
    const file = `vscode-remote://${url.host}${path.split('/').map(encodeURIComponent).join('/')}`;
    url.searchParams.set('payload', JSON.stringify([['openFile', file]]));
  }
  return url.toString();
}

/** A session that stopped (ended, failed or vanished) while the panel waited for it. */
export class WorkspaceStoppedError extends Error {
  constructor(message = 'The workspace session stopped before it was ready') {
    super(message);
    this.name = 'WorkspaceStoppedError';
  }
}

/** Automatic retries after a failed start wait 2 s, 4 s, 8 s… up to a minute between tries. */
export const RETRY_FIRST_MS = 2000;
export const RETRY_MAX_MS = 60_000;

/** How long to wait before the next automatic try, after `failures` failed tries in a row (1 or more). */
export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
}

/**
 * Whether trying again later may help: the orchestrator or its engine is down or slow, or the network is.
 * A refusal about the attempt itself (ended, not allowed, no workspace for this exam) will not change.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.isRetryable;
  return true;
}
