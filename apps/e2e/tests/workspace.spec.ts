import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { listResults, publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { enterExam, submitExam } from './support/taker.ts';
import { ENGINE_ERROR_VARIABLE } from './support/workspace-engine.ts';
import { signInCreator } from './support/ui.ts';

const FILE = 'solution.py';
const CODE = 'print(6 * 7)';

/**
 * Issue 6: a candidate's coding workspace, a real container on the private Docker engine (the small
 * test image stands in for code-server: its page has a form that writes a file into the workspace).
 */
test('a candidate saves a file in the coding workspace, keeps it through a reload, and the creator reads it in the result', async ({
  page,
  request,
}) => {
  const engineError = process.env[ENGINE_ERROR_VARIABLE];
  expect(
    engineError,
    `No Docker engine could be started for the workspace journey: ${engineError ?? ''}`,
  ).toBeUndefined();

  const creator = await registerCreator(request, 'workspace-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Workspace Journey',
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
    questions: [question.coding('Print the answer', 'python')],
  });

  await enterExam(page, exam.id, { name: 'Linus Torvalds', studentId: 'C-1969' });
  const panel = page.getByTestId('workspace-panel');
  const editor = page.frameLocator('iframe[title="Coding workspace"]');

  await test.step('the workspace panel connects to the editor', async () => {
    await expect(panel).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
    await expect(editor.getByRole('heading', { name: 'Exam workspace (test image)' })).toBeVisible();
    await expectAccessible(page, 'exam room with the coding workspace connected');
  });

  await test.step('the editor runs on an origin of its own, and neither page can read the other', async () => {
    const frameElement = page.locator('iframe[title="Coding workspace"]');
    const src = new URL((await frameElement.getAttribute('src')) ?? '');
    expect(src.origin).toBe(E2E.workspaceOrigin);
    expect(src.origin).not.toBe(new URL(page.url()).origin);
    // The frame's address holds a one-time launch token, never the candidate's attempt token.
    expect(src.searchParams.get('launch')).toBeTruthy();
    expect(src.searchParams.get('token')).toBeNull();
    expect(await frameElement.evaluate((frame: HTMLIFrameElement) => frame.contentDocument === null)).toBe(true);
    const editorFrame = page.frames().find((frame) => frame.url().startsWith(`${E2E.workspaceOrigin}/`));
    expect(editorFrame, 'the editor frame').toBeDefined();
    // The launch token left the frame's address at once (the orchestrator redirected with its cookie set).
    expect(new URL(editorFrame!.url()).searchParams.get('launch')).toBeNull();
    const reachesExamPage = await editorFrame!.evaluate(() => {
      try {
        return String(window.parent.localStorage.length >= 0 && window.parent.document.title);
      } catch {
        return 'blocked';
      }
    });
    expect(reachesExamPage).toBe('blocked');
  });

  await test.step('writes a file in the workspace', async () => {
    await editor.getByLabel('File name').fill(FILE);
    await editor.getByLabel('Content').fill(CODE);
    await editor.getByRole('button', { name: 'Save file' }).click();
    await expect(editor.getByRole('listitem').filter({ hasText: FILE })).toBeVisible();
  });

  await test.step('a reload ends the session but not the files', async () => {
    await page.reload();
    await expect(panel).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
    await expect(editor.getByRole('listitem').filter({ hasText: FILE })).toBeVisible();
  });

  await test.step('submits the exam', async () => {
    await submitExam(page);
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step('the creator opens the file in the result', async () => {
    const results = await listResults(request, creator.token);
    expect(results).toHaveLength(1);
    await signInCreator(page, creator);
    await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(results[0]!.id)}`);
    const files = page.getByRole('table', { name: 'Workspace Files' });
    await expect(files.getByRole('row').filter({ hasText: FILE })).toBeVisible();
    await page.getByRole('button', { name: `Open ${FILE}` }).click();
    await expect(page.getByRole('dialog', { name: FILE })).toContainText(CODE);
    await expectAccessible(page, 'result page with a workspace file open');
  });
});
