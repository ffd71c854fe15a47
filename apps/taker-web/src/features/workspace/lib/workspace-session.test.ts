import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import {
  editorSrc,
  isRetryable,
  RETRY_FIRST_MS,
  RETRY_MAX_MS,
  retryDelayMs,
  WorkspaceStoppedError,
} from './workspace-session.ts';

describe('editorSrc', () => {
  it('opens the editor on its own origin on /home/coder/workspace, keeping the launch token the orchestrator exchanges', () => {
    const url = new URL(editorSrc('http://workspace.test/workspace/abc/?launch=one-time'));
    expect(url.origin).toBe('http://workspace.test');
    expect(url.pathname).toBe('/workspace/abc/');
    expect(url.searchParams.get('folder')).toBe('/home/coder/workspace');
    expect(url.searchParams.get('launch')).toBe('one-time');
    expect(url.searchParams.has('payload')).toBe(false);
  });

  it("opens the question's file through the workbench's openFile payload, a vscode-remote URI on the editor's host", () => {
    const url = new URL(editorSrc('http://workspace.test:4100/workspace/abc/?launch=x', 'q2-sum two/main.py'));
    expect(url.searchParams.get('folder')).toBe('/home/coder/workspace');
    expect(JSON.parse(url.searchParams.get('payload')!)).toEqual([
      ['openFile', 'vscode-remote://workspace.test:4100/home/coder/workspace/q2-sum%20two/main.py'],
    ]);
  });
});

describe('retryDelayMs', () => {
  it('doubles from 2 s after each failure in a row and stops growing at a minute', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMs)).toEqual([
      2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
    expect(retryDelayMs(0)).toBe(RETRY_FIRST_MS);
    expect(retryDelayMs(1000)).toBe(RETRY_MAX_MS);
  });
});

describe('isRetryable', () => {
  const apiError = (status: number, code: string) => new ApiError({ status, code, userMessage: 'x' });

  it('retries when the orchestrator, its engine or the network is down', () => {
    expect(isRetryable(apiError(503, 'UNAVAILABLE'))).toBe(true);
    expect(isRetryable(apiError(502, 'UPSTREAM'))).toBe(true);
    expect(isRetryable(apiError(0, 'NETWORK'))).toBe(true);
    expect(isRetryable(new WorkspaceStoppedError())).toBe(true);
  });

  it('does not retry a refusal about the attempt itself', () => {
    expect(isRetryable(apiError(409, 'ATTEMPT_CLOSED'))).toBe(false);
    expect(isRetryable(apiError(401, 'UNAUTHENTICATED'))).toBe(false);
    expect(isRetryable(apiError(409, 'CONFLICT'))).toBe(false);
  });
});
