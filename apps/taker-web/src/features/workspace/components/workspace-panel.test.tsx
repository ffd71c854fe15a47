import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import { server } from '../../../testing/server.ts';
import { CONNECTING_MS, RENEW_ACCESS_MS, STORAGE_POLL_MS } from '../lib/workspace-session.ts';
import { createFakeOrchestrator, FAKE_WORKSPACE_ORIGIN, unavailable } from '../../../testing/fake-orchestrator.ts';
import { WorkspacePanel } from './workspace-panel.tsx';

const codingExam = () =>
  buildPublicExam({
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
  });

function renderPanel(
  fake: ReturnType<typeof createFakeOrchestrator>,
  opts: { preview?: boolean; attempt?: { attemptId: string; token: string } | null } = {},
) {
  const exam = codingExam();
  const attempt = opts.attempt === undefined ? { attemptId: 'attempt-1', token: fake.token } : opts.attempt;
  const view = render(
    <WorkspacePanel exam={exam} attempt={attempt} preview={opts.preview ?? false} activeQuestionIndex={0} />,
  );
  return { ...view, exam, panel: screen.getByTestId('workspace-panel') };
}

/** Only the timers are faked: fetch, msw and promises run as usual; vi.waitFor advances the clock. */
const useFakeTimers = () =>
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });

afterEach(() => {
  vi.useRealTimers();
});

describe('WorkspacePanel', () => {
  it('creates a session, connects for 3 seconds, then shows the editor when the orchestrator answers', async () => {
    useFakeTimers();
    const fake = createFakeOrchestrator();
    server.use(...fake.handlers);
    const { panel, exam } = renderPanel(fake);

    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'connecting'), { interval: 10 });
    expect(screen.getByText('Connecting to your workspace…')).toBeInTheDocument();
    expect(fake.state.createCalls).toBe(1);
    expect(fake.state.createBodies).toEqual([{ examId: exam.id }]);

    await act(() => vi.advanceTimersByTimeAsync(CONNECTING_MS - 100));
    expect(panel).toHaveAttribute('data-state', 'connecting');
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(panel).toHaveAttribute('data-state', 'connected');
    expect(screen.queryByText('Connecting to your workspace…')).not.toBeInTheDocument();
  });

  it('embeds the editor from its own origin with a one-time launch token, never the attempt token, inside the workspace frame', async () => {
    const fake = createFakeOrchestrator();
    server.use(...fake.handlers);
    const { panel } = renderPanel(fake);
    const iframe = await screen.findByTitle('Coding workspace');

    expect(iframe.tagName).toBe('IFRAME');
    expect(iframe.closest('[data-workspace-frame]')).not.toBeNull();
    expect(panel.contains(iframe)).toBe(true);
    expect(iframe).toHaveAttribute(
      'sandbox',
      'allow-scripts allow-same-origin allow-forms allow-popups allow-downloads allow-modals',
    );
    expect(iframe).toHaveAttribute('allow', 'clipboard-read; clipboard-write');
    const src = new URL(iframe.getAttribute('src') ?? '');
    expect(src.origin).toBe(FAKE_WORKSPACE_ORIGIN);
    expect(src.origin).not.toBe(window.location.origin);
    expect(src.pathname).toBe('/workspace/ws-1/');
    expect(src.searchParams.get('folder')).toBe('/home/coder/workspace');
    expect(src.searchParams.get('launch')).toBe('launch-1');
    expect(src.toString()).not.toContain(fake.token);
  });

  it('tells the candidate to use the editor under the question, never the technical reason, and Try again connects', async () => {
    const fake = createFakeOrchestrator({
      failures: [unavailable('the image exam/vscode is not present on this engine')],
    });
    server.use(...fake.handlers);
    const user = userEvent.setup();
    const { panel } = renderPanel(fake);

    const alert = await screen.findByRole('alert');
    expect(panel).toHaveAttribute('data-state', 'failed');
    expect(alert).toHaveTextContent('The coding workspace is not available right now');
    expect(alert).toHaveTextContent('Use the editor under the question — your work is saved.');
    expect(panel).not.toHaveTextContent('exam/vscode');
    expect(panel).not.toHaveTextContent('Workspace Unavailable');
    expect(screen.getByTestId('workspace-retry')).toHaveTextContent('Trying again in 2 s');
    expect(screen.queryByTitle('Coding workspace')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(panel).toHaveAttribute('data-state', 'connecting'));
    expect(fake.state.createCalls).toBe(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByTitle('Coding workspace')).toBeInTheDocument();
  });

  it('tries again by itself after 2 s, then 4 s, counting the seconds down, and connects when the engine is back', async () => {
    useFakeTimers();
    const down = unavailable('the Docker engine at /var/run/docker.sock is not reachable (ENOENT)');
    const fake = createFakeOrchestrator({ failures: [down, down] });
    server.use(...fake.handlers);
    const { panel } = renderPanel(fake);

    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'failed'), { interval: 10 });
    expect(fake.state.createCalls).toBe(1);
    expect(screen.getByTestId('workspace-retry')).toHaveTextContent('Trying again in 2 s');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('workspace-retry')).toHaveTextContent('Trying again in 1 s');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await vi.waitFor(() => expect(fake.state.createCalls).toBe(2), { interval: 10 });
    await vi.waitFor(() => expect(screen.getByTestId('workspace-retry')).toHaveTextContent('Trying again in 4 s'), {
      interval: 10,
    });

    await act(() => vi.advanceTimersByTimeAsync(3900));
    expect(fake.state.createCalls).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'connecting'), { interval: 10 });
    expect(fake.state.createCalls).toBe(3);
    expect(panel).not.toHaveTextContent('docker.sock');
  });

  it('does not try again by itself when the attempt has ended, but keeps the Try again button', async () => {
    useFakeTimers();
    const fake = createFakeOrchestrator({
      failures: [{ status: 409, code: 'ATTEMPT_CLOSED', message: 'This attempt has ended' }],
    });
    server.use(...fake.handlers);
    const { panel } = renderPanel(fake);
    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'failed'), { interval: 10 });
    expect(screen.getByRole('alert')).toHaveTextContent('The coding workspace is not available right now');
    expect(screen.queryByTestId('workspace-retry')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(fake.state.createCalls).toBe(1);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("polls the session's status while the orchestrator reports it starting, then connects", async () => {
    useFakeTimers();
    const fake = createFakeOrchestrator({ createStatus: 'starting', startingPolls: 2 });
    server.use(...fake.handlers);
    const { panel } = renderPanel(fake);

    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'creating'), { interval: 10 });
    expect(screen.getByText(/The first start can take up to 30 seconds/)).toBeInTheDocument();
    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'connecting'), {
      interval: 100,
      timeout: 10_000,
    });
    expect(fake.state.listCalls).toBe(3);
    expect(fake.state.createCalls).toBe(1);
  });

  it('makes no calls and explains that the workspace starts for candidates when in preview', async () => {
    const fake = createFakeOrchestrator();
    server.use(...fake.handlers);
    const { panel } = renderPanel(fake, { preview: true, attempt: null });

    expect(screen.getByText(/starts for candidates when they take the exam/)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.state.createCalls).toBe(0);
    expect(panel).toHaveAttribute('data-state', 'initializing');
    expect(panel).toHaveAttribute('data-preview', 'true');
    expect(screen.queryByTitle('Coding workspace')).not.toBeInTheDocument();
  });

  it('sends the end beacon with the attempt token as a plain-text body when the page is hidden for good', async () => {
    const fake = createFakeOrchestrator();
    server.use(...fake.handlers);
    // jsdom has no sendBeacon: this one posts like a browser does (a string body is sent as text/plain).
    const sendBeacon = vi.fn((url: string | URL, data?: BodyInit | null) => {
      void fetch(url, { method: 'POST', body: data, keepalive: true });
      return true;
    });
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { sendBeacon }));
    try {
      renderPanel(fake);
      await screen.findByTitle('Coding workspace');

      act(() => void window.dispatchEvent(new Event('pagehide')));
      expect(sendBeacon).toHaveBeenCalledTimes(1);
      expect(String(sendBeacon.mock.calls[0]?.[0])).toMatch(/\/api\/session\/ws-1\/end$/);
      await waitFor(() =>
        expect(fake.state.beacons).toEqual([
          { sessionId: 'ws-1', body: fake.token, contentType: 'text/plain;charset=UTF-8' },
        ]),
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('ends the session with a keepalive DELETE when the browser refuses the beacon', async () => {
    const fake = createFakeOrchestrator();
    server.use(...fake.handlers);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { sendBeacon: () => false }));
    try {
      renderPanel(fake);
      await screen.findByTitle('Coding workspace');
      act(() => void window.dispatchEvent(new Event('pagehide')));
      await waitFor(() => expect(fake.state.deletes).toEqual(['ws-1']));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('does not end the session when the panel unmounts or the page goes into the back/forward cache', async () => {
    const fake = createFakeOrchestrator();
    server.use(...fake.handlers);
    const sendBeacon = vi.fn(() => true);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { sendBeacon }));
    try {
      const { unmount } = renderPanel(fake);
      await screen.findByTitle('Coding workspace');
      const cached = Object.assign(new Event('pagehide'), { persisted: true });
      act(() => void window.dispatchEvent(cached));
      unmount();
      act(() => void window.dispatchEvent(new Event('pagehide')));
      expect(sendBeacon).not.toHaveBeenCalled();
      expect(fake.state.deletes).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('renews the editor access while connected, and tells the candidate and tries again when the session has ended', async () => {
    useFakeTimers();
    const fake = createFakeOrchestrator();
    server.use(...fake.handlers);
    const { panel } = renderPanel(fake);
    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'connecting'), { interval: 10 });

    await act(() => vi.advanceTimersByTimeAsync(RENEW_ACCESS_MS));
    await vi.waitFor(() => expect(fake.state.launches).toEqual(['ws-1', 'ws-1']), { interval: 10 });
    expect(panel).toHaveAttribute('data-state', 'connected');

    fake.state.ended.add('ws-1');
    await act(() => vi.advanceTimersByTimeAsync(RENEW_ACCESS_MS));
    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'failed'), { interval: 10 });
    expect(screen.getByRole('alert')).toHaveTextContent('The coding workspace is not available right now');
    expect(screen.getByTestId('workspace-retry')).toHaveTextContent('Trying again in 2 s');
  });

  it('tells the candidate in plain words when the workspace is full, and stops once space is freed', async () => {
    useFakeTimers();
    const fake = createFakeOrchestrator();
    server.use(...fake.handlers);
    const { panel } = renderPanel(fake);
    await vi.waitFor(() => expect(panel).toHaveAttribute('data-state', 'connecting'), { interval: 10 });
    await act(() => vi.advanceTimersByTimeAsync(CONNECTING_MS));
    expect(panel).toHaveAttribute('data-state', 'connected');
    expect(screen.queryByTestId('workspace-full')).not.toBeInTheDocument();

    const MiB = 1024 ** 2;
    fake.state.storage = { usedBytes: 64 * MiB, availableBytes: 0, sizeBytes: 64 * MiB, full: true };
    await act(() => vi.advanceTimersByTimeAsync(STORAGE_POLL_MS));
    await vi.waitFor(() => expect(screen.getByTestId('workspace-full')).toBeInTheDocument(), { interval: 10 });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your workspace is full. It holds 64 MB and has no space left, so new changes cannot be saved.',
    );
    // The editor stays: the candidate frees space in it.
    expect(screen.getByTitle('Coding workspace')).toBeInTheDocument();
    expect(panel).toHaveAttribute('data-state', 'connected');

    fake.state.storage = { usedBytes: 10 * MiB, availableBytes: 54 * MiB, sizeBytes: 64 * MiB, full: false };
    await act(() => vi.advanceTimersByTimeAsync(STORAGE_POLL_MS));
    await vi.waitFor(() => expect(screen.queryByTestId('workspace-full')).not.toBeInTheDocument(), { interval: 10 });
  });
});
