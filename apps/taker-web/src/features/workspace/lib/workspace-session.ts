import { WORKSPACE_FOLDER, WORKSPACE_UNAVAILABLE } from '@exam/domain/workspace';
import { ApiError } from '../../../lib/api-client.ts';

/** The panel's timings and its default failure text. */
export const CONNECTING_MS = 3000;
export const FIRST_START_SECONDS = 30;
export const DEFAULT_FAILURE = 'Failed to create your coding workspace';
/** The orchestrator gives up after its own start timeout (30 s by default); this only bounds a hung request. */
export const CREATE_TIMEOUT_MS = 60_000;
export const STATUS_POLL_MS = 1000;
/** Well inside the proxy cookie's 30-minute lifetime and the 30-minute idle reaper. */
export const RENEW_ACCESS_MS = 5 * 60_000;

/**
 * The frame's address: the editor on WORKSPACE_ORIGIN (its own origin, never the exam page's) opened on the
 * workspace folder (code-server's `folder` parameter). The launch token in `editorUrl` is exchanged by the
 * orchestrator for its cookie on that origin and removed from the frame's URL by a redirect.
 */
export function editorSrc(editorUrl: string): string {
  const url = new URL(editorUrl);
  url.searchParams.set('folder', WORKSPACE_FOLDER);
  return url.toString();
}

/** A session that stopped (ended, failed or vanished) while the panel waited for it. */
export class WorkspaceStoppedError extends Error {
  constructor(message = DEFAULT_FAILURE) {
    super(message);
    this.name = 'WorkspaceStoppedError';
  }
}

/**
 * The text under 'Workspace Unavailable': the server's reason without the repeated
 * title, or the default when there is no usable message (no connection, an unreadable answer).
 */
export function failureReason(error: unknown): string {
  let message = '';
  if (error instanceof ApiError) message = error.isNetwork ? '' : error.userMessage;
  else if (error instanceof WorkspaceStoppedError) message = error.message;
  const prefix = `${WORKSPACE_UNAVAILABLE}:`;
  const reason = (message.startsWith(prefix) ? message.slice(prefix.length) : message).trim();
  return reason || DEFAULT_FAILURE;
}
