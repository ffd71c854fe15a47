import { expect, test } from '../tests/support/fixtures.ts';
import { listResults, publishExam, question, registerCreator } from '../tests/support/api.ts';
import { E2E } from '../tests/support/env.ts';
import { enterExam, submitExam } from '../tests/support/taker.ts';
import { signInCreator } from '../tests/support/ui.ts';
import { ENGINE_ERROR_VARIABLE } from '../tests/support/workspace-engine.ts';

const FILE = 'hello.py';
const CODE = 'print(6 * 7)';
const OUTPUT = 'run-output.txt';

/**
 * Issue 35: the real code-server image through the exam page — the editor proxied by the orchestrator on its own
 * origin, its WebSocket relayed — not the container opened directly. The candidate creates a file in the Explorer,
 * runs it in VS Code's terminal, and the grader reads the file in the result.
 */
test('through the exam page, a candidate creates a file in the VS Code Explorer, runs it in the terminal, and the grader sees it', async ({
  page,
  request,
}) => {
  const engineError = process.env[ENGINE_ERROR_VARIABLE];
  expect(engineError, `No Docker engine could be started: ${engineError ?? ''}`).toBeUndefined();

  const creator = await registerCreator(request, 'real-vscode-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Real VS Code Journey',
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
    questions: [question.coding('Print the answer', 'python')],
  });

  await enterExam(page, exam.id, { name: 'Grace Hopper', studentId: 'C-1906' });
  const panel = page.getByTestId('workspace-panel');
  const editor = page.frameLocator('iframe[title="Coding workspace"]');

  await test.step('the real editor loads through the proxy', async () => {
    await expect(panel).toHaveAttribute('data-state', 'connected', { timeout: 120_000 });
    await expect(editor.locator('.monaco-workbench')).toBeVisible({ timeout: 120_000 });
    await expect(editor.getByRole('tree', { name: /Files Explorer/i })).toBeVisible({ timeout: 60_000 });
  });

  await test.step('creates a file in the Explorer and saves it', async () => {
    const explorer = editor.getByRole('tree', { name: /Files Explorer/i });
    await explorer.hover();
    await editor
      .getByRole('button', { name: /^New File/ })
      .first()
      .click();
    const nameBox = editor.locator('.explorer-item-edited input, .monaco-inputbox input').first();
    await expect(nameBox).toBeFocused();
    await page.keyboard.type(FILE);
    await page.keyboard.press('Enter');
    await expect(editor.getByRole('tab', { name: new RegExp(FILE.replace('.', '\\.')) })).toBeVisible({
      timeout: 90_000,
    });
    await editor.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.type(CODE);
    await page.keyboard.press('Control+s');
    await expect(explorer.getByRole('treeitem', { name: new RegExp(FILE.replace('.', '\\.')) })).toBeVisible();
  });

  await test.step('opens the terminal and runs the program', async () => {
    await page.keyboard.press('F1');
    await page.keyboard.type('Terminal: Create New Terminal');
    await expect(editor.getByRole('option', { name: /Terminal: Create New Terminal/ }).first()).toBeVisible();
    await page.keyboard.press('Enter');
    // xterm draws on a canvas, so what the program printed is read from the file it is sent to: it shows in the
    // Explorer, and the grader reads it in the result.
    const terminal = editor.locator('.terminal-wrapper.active .xterm').first();
    await expect(terminal).toBeVisible({ timeout: 60_000 });
    await terminal.click();
    await page.keyboard.type(`python3 ${FILE} > ${OUTPUT} && echo done >> ${OUTPUT}`);
    await page.keyboard.press('Enter');
    const explorer = editor.getByRole('tree', { name: /Files Explorer/i });
    await expect(explorer.getByRole('treeitem', { name: new RegExp(OUTPUT.replace('.', '\\.')) })).toBeVisible({
      timeout: 60_000,
    });
  });

  await test.step('submits, and the grader reads the file', async () => {
    await submitExam(page);
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    const results = await listResults(request, creator.token);
    expect(results).toHaveLength(1);
    await signInCreator(page, creator);
    await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(results[0]!.id)}`);
    const files = page.getByRole('table', { name: 'Workspace Files' });
    await expect(files.getByRole('row').filter({ hasText: FILE })).toBeVisible();
    await page.getByRole('button', { name: `Open ${FILE}` }).click();
    await expect(page.getByRole('dialog', { name: FILE })).toContainText(CODE);
    await page.keyboard.press('Escape');
    // What the program printed in the terminal, as the terminal wrote it.
    await page.getByRole('button', { name: `Open ${OUTPUT}` }).click();
    await expect(page.getByRole('dialog', { name: OUTPUT })).toContainText('42');
    await expect(page.getByRole('dialog', { name: OUTPUT })).toContainText('done');
  });
});
