import type { AiProvider } from '@exam/domain/ai-catalogue';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { server } from '../../../../testing/server.ts';

const lastBody = () => examStore.writes.at(-1)?.body as { codingWorkspace: { ai?: unknown } };

/** A draft with the workspace on and the assistant on the provider given, open in the editor. */
async function openEditor(provider: AiProvider, ai?: { mode: 'none' | 'chat' | 'agent'; agent: string | null }) {
  const exam = makeExam({
    title: 'Agents',
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
      ...(ai ? { ai } : {}),
    } as never,
    aiSettings: { enabled: true, provider, model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o' },
  });
  seedExams(exam);
  signInAs();
  const rendered = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
  const mode = await screen.findByRole('combobox', { name: 'AI in the workspace' }, { timeout: 15_000 });
  return { ...rendered, mode, exam };
}

async function pick(user: ReturnType<typeof renderApp>['user'], combobox: HTMLElement, option: string) {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('AI in the workspace', () => {
  it('starts at the chat assistant only, and offers only the agents the provider can serve', async () => {
    const { user, mode } = await openEditor('anthropic');
    expect(mode).toHaveTextContent('The chat assistant only');
    expect(screen.queryByRole('combobox', { name: 'Agent' })).not.toBeInTheDocument();

    await pick(user, mode, 'A coding agent');
    const agent = screen.getByRole('combobox', { name: 'Agent' });
    await user.click(agent);
    const listed = within(screen.getByRole('listbox'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    // Codex CLI and Qwen Code speak OpenAI's formats only.
    expect(listed).toEqual(['Claude Code', 'opencode']);
    await user.click(screen.getByRole('option', { name: 'opencode' }));

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastBody().codingWorkspace.ai).toEqual({ mode: 'agent', agent: 'opencode' });
  });

  it('sends None, with no agent', async () => {
    const { user, mode } = await openEditor('openai', { mode: 'agent', agent: 'codex' });
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveTextContent('Codex CLI');
    await pick(user, mode, 'None');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastBody().codingWorkspace.ai).toEqual({ mode: 'none', agent: null });
  });

  it('says why an agent the provider cannot serve is refused, beside the agent, and saves nothing', async () => {
    const { user } = await openEditor('anthropic', { mode: 'agent', agent: 'codex' });
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const agent = screen.getByRole('combobox', { name: 'Agent' });
    await waitFor(() => expect(agent).toHaveAttribute('aria-invalid', 'true'));
    expect(agent).toHaveAccessibleDescription(
      /Codex CLI cannot use the assistant's provider \(anthropic\); choose Claude Code or opencode/,
    );
    expect(examStore.writes).toHaveLength(0);
  });

  it("shows the server's reason at the agent when the server refuses the choice", async () => {
    const reason = 'Turn the AI assistant on: the agent uses its provider, model and budget';
    server.use(
      http.put('*/api/exams/:id', () =>
        HttpResponse.json(errorBody('VALIDATION', reason, [{ path: 'codingWorkspace.ai.agent', message: reason }]), {
          status: 400,
        }),
      ),
    );
    const { user } = await openEditor('openai', { mode: 'agent', agent: 'qwen-code' });
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveAccessibleDescription(new RegExp(reason));
  });

  it('tells the creator when no agent can use the provider', async () => {
    const { user, mode } = await openEditor('google');
    await pick(user, mode, 'A coding agent');
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveAccessibleDescription(
      /No agent can use the assistant's provider \(google\)/,
    );
  });
});
