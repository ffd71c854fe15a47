import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
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

/** jsdom has no DragEvent; an Event with dataTransfer is what the page's listeners read. */
function dragEvent(type: 'dragstart' | 'dragend' | 'drop', target: Element, text: string, files = 0): Event {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', {
    value: { getData: (format: string) => (format === 'text/plain' ? text : ''), files: { length: files } },
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
    // The workspace panel is a lazy chunk: it arrives after the exam page.
    await waitFor(() => expect(document.querySelector('[data-workspace-frame]')).not.toBeNull());
    const frame = document.querySelector('[data-workspace-frame]');
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

  it('refuses text dropped in from another window like an outside paste, and lets a drag inside the page through', async () => {
    const { fake } = await openExam();
    const field = screen.getByLabelText('Answer for Q1');
    expect(dragEvent('drop', field, 'an essay from another window').defaultPrevented).toBe(true);
    expect(await screen.findByText('Paste blocked. Please copy from within the exam interface.')).toBeInTheDocument();
    await waitFor(() =>
      expect(fake.state.events.find((e) => e.type === 'paste-blocked')?.detail).toBe('28 characters dropped'),
    );

    const heading = screen.getByRole('heading', { name: /^Q1:/ });
    dragEvent('dragstart', heading, 'A question');
    expect(dragEvent('drop', field, 'A question').defaultPrevented).toBe(false);
    dragEvent('dragend', heading, '');
    // A dropped file is not text: a file question's drop zone gets it.
    expect(dragEvent('drop', field, '', 1).defaultPrevented).toBe(false);
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
