import { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import type { Page } from '@playwright/test';
import type { AgentCallsResponse } from '@exam/domain/workspace-agents';
import { expect, test } from '../tests/support/fixtures.ts';
import { getResult, listResults, publishExam, question, registerCreator } from '../tests/support/api.ts';
import { E2E, FAKE_OPENAI_PORT } from '../tests/support/env.ts';
import { startFakeResponses, type FakeResponses } from '../tests/support/fake-responses.ts';
import { enterExam, submitExam } from '../tests/support/taker.ts';
import { signInCreator } from '../tests/support/ui.ts';
import { ENGINE_ERROR_VARIABLE } from '../tests/support/workspace-engine.ts';

const NOTES = 'notes.txt';
const NOTE = 'written by codex';
const DIRECT = 'direct.txt';
const CLAUDE_NOTES = 'claude-notes.txt';
const CLAUDE_NOTE = 'written by claude';
// Each call reports 600 tokens and the attempt may use 1,000: the first task's two calls are admitted (0 and 600
// used before them), any call after that is refused.
const USAGE = { input: 400, output: 200 };
const TOKENS_PER_ATTEMPT = 1000;

let fake: FakeResponses;
test.beforeAll(async () => {
  fake = await startFakeResponses({
    port: FAKE_OPENAI_PORT,
    command: `printf '${NOTE}\\n' > ${NOTES}`,
    write: { path: `/home/coder/workspace/${CLAUDE_NOTES}`, content: `${CLAUDE_NOTE}\n` },
    usage: USAGE,
    // Listening on every host address, the bridge's included: only the host firewall keeps the workspace from it.
    host: '0.0.0.0',
  });
});
test.afterAll(async () => {
  await fake.close();
});

/** Types a command into VS Code's terminal (opened from the command palette when none is open). */
async function runInTerminal(page: Page, command: string) {
  const editor = page.frameLocator('iframe[title="Coding workspace"]');
  const terminal = editor.locator('.terminal-wrapper.active .xterm').first();
  if (!(await terminal.isVisible())) {
    // The command palette opens from a key pressed inside the editor's frame: focus the Explorer first.
    const explorer = editor.getByRole('tree', { name: /Files Explorer/i });
    await expect(explorer).toBeVisible({ timeout: 60_000 });
    await explorer.click();
    await page.keyboard.press('F1');
    await page.keyboard.type('Terminal: Create New Terminal');
    await expect(editor.getByRole('option', { name: /Terminal: Create New Terminal/ }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(terminal).toBeVisible({ timeout: 60_000 });
  }
  await terminal.click();
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}

/**
 * Issue 35: a candidate runs the exam's coding agent (Codex CLI, unmodified from the npm registry) in the real VS Code
 * workspace through the exam page. Its calls go through the orchestrator's relay to llm-gateway, which forwards them
 * to the fake provider with the server's key, counts them, stores them with their tool calls, and refuses them once
 * the attempt's tokens are spent; the provider itself is not reachable from the workspace. The grader sees the
 * calls and the file they wrote on the timeline.
 */
test('a candidate runs the exam’s coding agent in the workspace; the grader sees its calls and the file it wrote', async ({
  page,
  request,
}) => {
  const engineError = process.env[ENGINE_ERROR_VARIABLE];
  expect(engineError, `No Docker engine could be started: ${engineError ?? ''}`).toBeUndefined();

  const creator = await registerCreator(request, 'real-agent-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Agent Journey',
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
      ai: { mode: 'agent', agent: 'codex' },
    },
    aiSettings: AiSettingsInputSchema.parse({
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      budget: { tokensPerAttempt: TOKENS_PER_ATTEMPT },
    }),
    questions: [question.coding('Write the notes with the agent', 'python')],
  });

  await enterExam(page, exam.id, { name: 'Ada Lovelace', studentId: 'C-1815' });
  const panel = page.getByTestId('workspace-panel');
  const editor = page.frameLocator('iframe[title="Coding workspace"]');
  const explorer = editor.getByRole('tree', { name: /Files Explorer/i });

  await test.step('the exam page says which agent the workspace has', async () => {
    await expect(panel).toHaveAttribute('data-state', 'connected', { timeout: 120_000 });
    await expect(page.getByText(/Codex CLI is available in this workspace/)).toBeVisible();
    await expect(editor.locator('.monaco-workbench')).toBeVisible({ timeout: 120_000 });
  });

  await test.step('the agent, run in the terminal, writes a file through its tool call', async () => {
    await runInTerminal(page, `codex exec --skip-git-repo-check "write the notes file" </dev/null`);
    await expect(explorer.getByRole('treeitem', { name: /notes\.txt/ })).toBeVisible({ timeout: 120_000 });
    // Two calls reached the provider through the gateway, with the server's key, never the workspace token.
    await expect.poll(() => fake.requests.filter((r) => r.path.startsWith('/v1/responses')).length).toBe(2);
    for (const r of fake.requests) expect(r.headers.authorization).toBe(`Bearer ${E2E.stackEnv.OPENAI_API_KEY}`);
    expect(fake.requests[0]!.body.model).toBe('gpt-4o-mini');
  });

  await test.step('a provider addressed directly is unreachable from the workspace', async () => {
    // A TCP connection, not an HTTP answer: any answer at all would mean the provider was reached.
    const probe =
      `for t in exam-ai:3140 api.openai.com:443 exam-ai:${FAKE_OPENAI_PORT}; do ` +
      `python3 -c 'import sys, socket; h, p = sys.argv[1].split(":"); socket.create_connection((h, int(p)), timeout=5)' $t 2>/dev/null ` +
      `&& echo reached $t || echo unreachable $t; done > ${DIRECT}`;
    await runInTerminal(page, probe);
    await expect(explorer.getByRole('treeitem', { name: /direct\.txt/ })).toBeVisible({ timeout: 60_000 });
  });

  await test.step('once the attempt’s tokens are spent, the agent is refused', async () => {
    const before = fake.requests.length;
    await runInTerminal(page, `codex exec --skip-git-repo-check "write more" </dev/null; echo refused-run > after.txt`);
    await expect(explorer.getByRole('treeitem', { name: /after\.txt/ })).toBeVisible({ timeout: 120_000 });
    expect(fake.requests.length).toBe(before);
  });

  await test.step('submits; the calls are in the transcript, counted, the refusal stored', async () => {
    await submitExam(page);
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    const [summary] = await listResults(request, creator.token);
    const result = await getResult(request, creator.token, summary!.id);
    const response = await request.get(
      `${E2E.creatorOrigin}/api/llm/attempts/${encodeURIComponent(result.attemptId)}/agent-calls`,
      { headers: { authorization: `Bearer ${creator.token}` } },
    );
    expect(response.status()).toBe(200);
    const { calls } = (await response.json()) as AgentCallsResponse;
    const ok = calls.filter((c) => c.status === 'ok');
    expect(ok).toHaveLength(2);
    expect(ok[0]!.toolCalls.map((t) => t.name)).toEqual(['exec_command']);
    expect(ok[0]!.toolCalls[0]!.arguments).toContain(NOTES);
    expect(ok.reduce((sum, c) => sum + c.inputTokens + c.outputTokens, 0)).toBe(2 * (USAGE.input + USAGE.output));
    expect(calls.some((c) => c.status === 'refused')).toBe(true);
    const notes = result.workspace_files[NOTES];
    expect(notes?.content).toContain(NOTE);
    const direct = result.workspace_files[DIRECT]?.content ?? '';
    expect(direct).toContain('unreachable api.openai.com:443');
    // The provider's own port on the host, at the address the relay answers on: refused by the host firewall.
    expect(direct).toContain(`unreachable exam-ai:${FAKE_OPENAI_PORT}`);
    // The probe itself works: the relay (AGENT_RELAY_PORT, 3140) on the same address answers.
    // (The terminal's shell integration may write its escape sequences into the file ahead of the first line.)
    expect(direct).toMatch(/(?<!un)reached exam-ai:3140$/m);

    await test.step('the grader sees the agent’s calls and the file it wrote, tied to the call', async () => {
      await signInCreator(page, creator);
      await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(summary!.id)}`);
      const agent = page.getByRole('region', { name: 'The workspace agent' });
      await expect(agent).toBeVisible({ timeout: 30_000 });
      const calls = agent.getByRole('list', { name: 'Agent calls' });
      await expect(calls.getByText('exec_command').first()).toBeVisible();
      await expect(calls.getByText('refused').first()).toBeVisible();
      const change = agent.getByRole('listitem').filter({ hasText: NOTES }).filter({ hasText: 'by agent call 1' });
      await expect(change.first()).toBeVisible();
    });
  });
});

/**
 * The second unmodified agent CLI: Claude Code (`claude -p`) on an exam whose assistant is Anthropic's, through the
 * relay and the gateway's Messages endpoint to the fake provider, its Write tool making the file.
 */
test('a candidate runs Claude Code in the workspace; its calls reach the grader through the gateway', async ({
  page,
  request,
}) => {
  const engineError = process.env[ENGINE_ERROR_VARIABLE];
  expect(engineError, `No Docker engine could be started: ${engineError ?? ''}`).toBeUndefined();
  const creator = await registerCreator(request, 'real-claude-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Claude Code Journey',
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
      ai: { mode: 'agent', agent: 'claude-code' },
    },
    aiSettings: AiSettingsInputSchema.parse({ enabled: true, provider: 'anthropic', model: 'claude-3-5-haiku' }),
    questions: [question.coding('Write the notes with Claude Code', 'python')],
  });
  await enterExam(page, exam.id, { name: 'Barbara Liskov', studentId: 'C-1939' });
  const editor = page.frameLocator('iframe[title="Coding workspace"]');
  await expect(page.getByTestId('workspace-panel')).toHaveAttribute('data-state', 'connected', { timeout: 120_000 });
  await expect(page.getByText(/Claude Code is available in this workspace/)).toBeVisible();
  await expect(editor.locator('.monaco-workbench')).toBeVisible({ timeout: 120_000 });
  const before = fake.requests.filter((r) => r.path.startsWith('/v1/messages')).length;

  await runInTerminal(page, `claude -p --permission-mode acceptEdits "write the notes file" </dev/null`);
  const explorer = editor.getByRole('tree', { name: /Files Explorer/i });
  await expect(explorer.getByRole('treeitem', { name: /claude-notes\.txt/ })).toBeVisible({ timeout: 120_000 });
  const relayed = fake.requests.filter((r) => r.path.startsWith('/v1/messages')).slice(before);
  expect(relayed.length).toBeGreaterThanOrEqual(2);
  for (const r of relayed) {
    expect(r.headers['x-api-key']).toBe('sk-ant-e2e-server-default-key');
    expect(r.body.model).toBe('claude-3-5-haiku');
  }

  await submitExam(page);
  await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  const [summary] = await listResults(request, creator.token);
  const result = await getResult(request, creator.token, summary!.id);
  expect(result.workspace_files[CLAUDE_NOTES]?.content).toContain(CLAUDE_NOTE);
  const response = await request.get(
    `${E2E.creatorOrigin}/api/llm/attempts/${encodeURIComponent(result.attemptId)}/agent-calls`,
    { headers: { authorization: `Bearer ${creator.token}` } },
  );
  const { calls } = (await response.json()) as AgentCallsResponse;
  const withWrite = calls.find((c) => c.toolCalls.some((t) => t.name === 'Write'));
  expect(withWrite?.status).toBe('ok');
  expect(withWrite?.wire).toBe('anthropic-messages');
  expect(withWrite?.toolCalls.find((t) => t.name === 'Write')?.arguments).toContain(CLAUDE_NOTES);
});
