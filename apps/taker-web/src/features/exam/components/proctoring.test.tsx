import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { createFakeOrchestrator } from '../../../testing/fake-orchestrator.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

async function openExam(exam = buildPublicExam()) {
  const fake = createFakeResultsService({ exam });
  server.use(...fake.handlers, ...createFakeOrchestrator().handlers);
  await seedAttempt(exam, fake.attemptId);
  const view = renderRoute(`/exam/${exam.id}`);
  await screen.findByRole('heading', { name: /^Q1:/ });
  return { ...view, fake };
}

/** jsdom has no ClipboardEvent; an Event with clipboardData is what the page's listeners read. */
function clipboardEvent(type: 'copy' | 'paste', target: Element, text: string): Event {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'clipboardData', {
    value: { getData: (format: string) => (format === 'text/plain' ? text : '') },
  });
  act(() => void target.dispatchEvent(event));
  return event;
}

describe('proctoring on the exam page', () => {
  it('shows Attention Required, counts a warning and records the events when the window loses focus', async () => {
    const { user, fake } = await openExam();
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    expect(await screen.findByRole('dialog', { name: 'Attention Required' })).toBeInTheDocument();
    expect(screen.getByTestId('warnings-count')).toHaveTextContent('1');

    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Resume Exam' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Attention Required' })).not.toBeInTheDocument());
    await waitFor(() => expect(fake.state.events.map((e) => e.type)).toEqual(['focus-lost', 'focus-gained']));
  });

  it('does not count focus moving into the workspace frame as a loss', async () => {
    await openExam(
      buildPublicExam({
        codingWorkspace: {
          enabled: true,
          saveFilesInResults: true,
          workspaceType: 'vscode',
          allowPackageRegistries: false,
        },
      }),
    );
    const frame = document.querySelector('[data-workspace-frame]');
    expect(frame).not.toBeNull();
    const iframe = document.createElement('iframe');
    iframe.tabIndex = 0;
    frame?.append(iframe);
    act(() => iframe.focus());
    expect(document.activeElement).toBe(iframe);
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.queryByRole('dialog', { name: 'Attention Required' })).not.toBeInTheDocument();
    expect(screen.getByTestId('warnings-count')).toHaveTextContent('0');
  });

  it('blocks pasting text from outside the exam and shows the notice', async () => {
    const { fake } = await openExam();
    const field = screen.getByLabelText('Answer for Q1');
    const paste = clipboardEvent('paste', field, 'answer from a chatbot');
    expect(paste.defaultPrevented).toBe(true);
    expect(await screen.findByText('Paste blocked. Please copy from within the exam interface.')).toHaveAttribute(
      'role',
      'status',
    );
    await waitFor(() => expect(fake.state.events.map((e) => e.type)).toContain('paste-blocked'));
  });

  it('allows pasting text copied inside the exam', async () => {
    const { fake } = await openExam();
    const field = screen.getByLabelText<HTMLTextAreaElement>('Answer for Q1');
    clipboardEvent('copy', screen.getByRole('heading', { name: /^Q1:/ }), 'A question');
    expect(clipboardEvent('paste', field, 'A question').defaultPrevented).toBe(false);

    // A native copy carries no data yet: the selection inside the focused textarea is what was copied.
    act(() => {
      field.focus();
      field.value = 'my own words';
      field.setSelectionRange(0, 6);
    });
    clipboardEvent('copy', field, '');
    expect(clipboardEvent('paste', field, 'my own').defaultPrevented).toBe(false);
    expect(screen.queryByText('Paste blocked. Please copy from within the exam interface.')).not.toBeInTheDocument();
    await waitFor(() => expect(fake.state.events.filter((e) => e.type === 'copy')).toHaveLength(2));
  });
});

describe('creator preview (?creator=true)', () => {
  it('loads the exam with the token the creator window sends, with no timer, proctoring or saving', async () => {
    const exam = buildPublicExam({ id: 'draft-1', title: 'Offline Draft', isLive: false, timerEnabled: true });
    let attemptCalls = 0;
    server.use(
      http.get('/api/public/exams/:id', ({ request }) =>
        request.headers.get('authorization') === 'Bearer creator-jwt'
          ? HttpResponse.json(exam)
          : HttpResponse.json({ error: { code: 'EXAM_OFFLINE', message: 'offline' } }, { status: 403 }),
      ),
      http.all('/api/attempts/*', () => (attemptCalls++, HttpResponse.json({}))),
    );
    const opener = {
      postMessage: vi.fn((message: unknown, origin: string) => {
        expect(message).toEqual({ type: 'preview-ready' });
        // Another origin's answer is ignored; the creator's is used.
        setTimeout(() =>
          window.dispatchEvent(
            new MessageEvent('message', {
              data: { type: 'preview-token', token: 'forged' },
              origin: 'http://evil.test',
            }),
          ),
        );
        setTimeout(
          () =>
            window.dispatchEvent(
              new MessageEvent('message', { data: { type: 'preview-token', token: 'creator-jwt' }, origin }),
            ),
          20,
        );
      }),
    };
    Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true });
    onTestFinished(() => {
      window.opener = null;
    });
    const { user } = renderRoute('/exam/draft-1?creator=true');

    expect(await screen.findByRole('heading', { name: 'Offline Draft' })).toBeInTheDocument();
    expect(opener.postMessage).toHaveBeenCalledWith({ type: 'preview-ready' }, 'http://creator.test');
    expect(screen.getByText('Creator Preview')).toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    expect(screen.queryByTestId('save-status')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Answer for Q1'), 'just looking');
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 1/1');
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByRole('dialog', { name: 'Attention Required' })).not.toBeInTheDocument();
    expect(attemptCalls).toBe(0);
  });
});
