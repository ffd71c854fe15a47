import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NARROW_QUERY } from '../lib/room-layout.ts';
import { ExamPanels } from './exam-panels.tsx';

const ALL = { questions: true, workspace: true, assistant: true };

/** matchMedia answering the narrow layout's query as a window of that width would. */
function windowWidth(px: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === NARROW_QUERY && px < 1100,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function renderPanels(options: { workspace?: boolean; assistant?: boolean } = {}) {
  return render(
    <ExamPanels
      visible={ALL}
      questions={<p>Q1: Reverse a string</p>}
      workspace={options.workspace === false ? null : <iframe title="Editor" />}
      assistant={options.assistant === false ? null : <textarea aria-label="Chat" />}
    />,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('ExamPanels', () => {
  it('has no assistant column, rail or tab when the exam has no assistant', () => {
    windowWidth(1366);
    renderPanels({ assistant: false });
    expect(screen.getByTestId('panel-questions')).toBeInTheDocument();
    expect(screen.getByTestId('panel-workspace')).toBeInTheDocument();
    expect(screen.queryByTestId('panel-assistant')).not.toBeInTheDocument();
    expect(screen.queryByTestId('assistant-frame')).not.toBeInTheDocument();
    expect(screen.getAllByRole('separator', { name: 'Resize panels' })).toHaveLength(1);
  });

  it('shows the questions alone, without tabs or handles, when the exam has neither workspace nor assistant', () => {
    windowWidth(1024);
    renderPanels({ workspace: false, assistant: false });
    expect(screen.getByText('Q1: Reverse a string')).toBeVisible();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(screen.queryByRole('separator')).not.toBeInTheDocument();
  });

  it('shows columns at 1366 px and tabs for the enabled panels only at 1024 px', () => {
    windowWidth(1366);
    const { unmount } = renderPanels();
    expect(screen.getByTestId('exam-panels')).toHaveAttribute('data-layout', 'columns');
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    unmount();

    windowWidth(1024);
    renderPanels({ workspace: false });
    expect(screen.getByTestId('exam-panels')).toHaveAttribute('data-layout', 'tabs');
    const tabs = within(screen.getByRole('tablist', { name: 'Exam panels' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Questions', 'Assistant']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Questions' })).toHaveTextContent('Q1: Reverse a string');
  });

  it('switches tabs by click and arrow keys, keeping every panel mounted with its state', async () => {
    windowWidth(1024);
    const user = userEvent.setup();
    renderPanels();
    const frame = screen.getByTitle('Editor');
    const chat = screen.getByLabelText('Chat');

    await user.click(screen.getByRole('tab', { name: 'Assistant' }));
    expect(screen.getByRole('tab', { name: 'Assistant' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('panel-questions')).not.toBeVisible();
    await user.type(screen.getByLabelText('Chat'), 'How do I start?');

    await user.click(screen.getByRole('tab', { name: 'Assistant' }));
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Workspace' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Workspace' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('panel-workspace')).toBeVisible();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Questions' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Assistant' })).toHaveAttribute('aria-selected', 'true');

    // The same elements all along: the editor frame never reloaded, the draft is still there.
    expect(screen.getByTitle('Editor')).toBe(frame);
    expect(screen.getByLabelText('Chat')).toBe(chat);
    expect(chat).toHaveValue('How do I start?');
  });

  it('gives every enabled panel a tab, even one hidden in the columns, and no title bar to the assistant', () => {
    windowWidth(1024);
    render(
      <ExamPanels
        visible={{ questions: true, workspace: false, assistant: false }}
        questions={<p>Q1</p>}
        workspace={<iframe title="Editor" />}
        assistant={<textarea aria-label="Chat" />}
      />,
    );
    const tabs = within(screen.getByRole('tablist')).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Questions', 'Workspace', 'Assistant']);
    expect(screen.queryByText('AI Assistant')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Minimize assistant' })).not.toBeInTheDocument();
  });

  it('collapses the assistant to a rail that opens it again, keeping the conversation mounted', async () => {
    windowWidth(1366);
    const user = userEvent.setup();
    renderPanels();
    const chat = screen.getByLabelText('Chat');
    await user.type(chat, 'draft');

    await user.click(screen.getByRole('button', { name: 'Minimize assistant' }));
    expect(screen.getByTestId('assistant-frame')).toHaveAttribute('data-collapsed', 'true');
    expect(chat).not.toBeVisible();
    expect(screen.getByTestId('panel-assistant').style.flexBasis).toBe('2.75rem');
    // Only the handle between the questions and the workspace can still be dragged.
    expect(screen.getAllByRole('separator', { name: 'Resize panels' })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Open the assistant' }));
    expect(screen.getByTestId('assistant-frame')).toHaveAttribute('data-collapsed', 'false');
    expect(screen.getByLabelText('Chat')).toBe(chat);
    expect(chat).toHaveValue('draft');
  });
});
