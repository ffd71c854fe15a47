import type { WorkspaceAi } from '@exam/domain/workspace-agents';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import { WorkspacePanel } from './workspace-panel.tsx';

/** The panel in a creator's preview: no session is asked for, the header and the AI note still show. */
function renderPanel(ai: WorkspaceAi | undefined) {
  const exam = buildPublicExam({
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
      ...(ai ? { ai } : {}),
    },
  });
  render(<WorkspacePanel exam={exam} attempt={null} preview activeQuestionIndex={0} />);
  return screen.getByTestId('workspace-panel');
}

describe("the workspace panel's AI note", () => {
  it('names the agent available in the terminal, its example command, and that its calls are recorded', () => {
    const panel = renderPanel({ mode: 'agent', agent: 'claude-code' });
    const note = within(panel).getByTestId('workspace-ai');
    expect(note).toHaveTextContent("Claude Code is available in this workspace's terminal.");
    expect(within(note).getByText('claude -p "add a test for parse()"')).toBeInTheDocument();
    expect(note).toHaveTextContent('Its calls go through the exam platform and are recorded for the examiners.');
  });

  it('says no AI is available when the exam gives none', () => {
    const panel = renderPanel({ mode: 'none', agent: null });
    expect(within(panel).getByTestId('workspace-ai')).toHaveTextContent('No AI is available in this workspace.');
  });

  it('says nothing new with the chat assistant only, or an exam stored before the setting', () => {
    expect(within(renderPanel({ mode: 'chat', agent: null })).queryByTestId('workspace-ai')).toBeNull();
    document.body.innerHTML = '';
    expect(within(renderPanel(undefined)).queryByTestId('workspace-ai')).toBeNull();
  });
});
