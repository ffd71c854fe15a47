import { workspaceUnavailable } from '@exam/domain/workspace';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { DEFAULT_FAILURE, editorSrc, failureReason, WorkspaceStoppedError } from './workspace-session.ts';

describe('editorSrc', () => {
  it('opens the editor on its own origin on /home/coder/workspace, keeping the launch token the orchestrator exchanges', () => {
    const url = new URL(editorSrc('http://workspace.test/workspace/abc/?launch=one-time'));
    expect(url.origin).toBe('http://workspace.test');
    expect(url.pathname).toBe('/workspace/abc/');
    expect(url.searchParams.get('folder')).toBe('/home/coder/workspace');
    expect(url.searchParams.get('launch')).toBe('one-time');
  });
});

describe('failureReason', () => {
  it("returns the server's reason without the repeated title when the orchestrator says Workspace Unavailable", () => {
    const error = new ApiError({
      status: 503,
      code: 'UNAVAILABLE',
      userMessage: workspaceUnavailable('no Docker engine is reachable'),
    });
    expect(failureReason(error)).toBe('no Docker engine is reachable');
  });

  it('returns another server message as is', () => {
    expect(
      failureReason(new ApiError({ status: 409, code: 'ATTEMPT_CLOSED', userMessage: 'This attempt has ended' })),
    ).toBe('This attempt has ended');
  });

  it('returns the default message when there was no answer, an unreadable one, or a bare title', () => {
    expect(failureReason(new ApiError({ status: 0, code: 'NETWORK', userMessage: 'fetch failed' }))).toBe(
      DEFAULT_FAILURE,
    );
    expect(failureReason(new TypeError('bad body'))).toBe(DEFAULT_FAILURE);
    expect(
      failureReason(new ApiError({ status: 503, code: 'UNAVAILABLE', userMessage: 'Workspace Unavailable:' })),
    ).toBe(DEFAULT_FAILURE);
    expect(failureReason(new WorkspaceStoppedError())).toBe(DEFAULT_FAILURE);
  });
});
