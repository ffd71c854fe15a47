import type { AuthResponse } from '@exam/domain/auth';
import type { APIRequestContext, Frame, Page } from '@playwright/test';
import { expect, test } from '../tests/support/fixtures.ts';
import { listResults, publishExam, question, registerCreator } from '../tests/support/api.ts';
import { E2E } from '../tests/support/env.ts';
import { enterExam, submitExam } from '../tests/support/taker.ts';
import { signInCreator } from '../tests/support/ui.ts';
import { ENGINE_ERROR_VARIABLE } from '../tests/support/workspace-engine.ts';

/** The workspace's own frame (the editor on its origin), once the panel has connected. */
async function workspaceFrame(page: Page): Promise<Frame> {
  await expect(page.getByTestId('workspace-panel')).toHaveAttribute('data-state', 'connected', { timeout: 120_000 });
  let frame: Frame | undefined;
  await expect
    .poll(() => (frame = page.frames().find((f) => f.url().startsWith(`${E2E.workspaceOrigin}/`))) !== undefined)
    .toBe(true);
  return frame!;
}

/** Opens the result of the exam's only submission as its creator. */
async function openOnlyResult(page: Page, request: APIRequestContext, creator: AuthResponse) {
  const results = await listResults(request, creator.token);
  expect(results).toHaveLength(1);
  await signInCreator(page, creator);
  await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(results[0]!.id)}`);
}

/**
 * Issue 35: the excel workspace is a real spreadsheet (Univer, infra/workspaces/excel) saving workbook.xlsx; the
 * candidate types a number and a formula in the grid through the exam page, and the grader opens the collected
 * workbook with its formula and value.
 */
test('a candidate builds a small spreadsheet with a formula; the grader opens the collected .xlsx', async ({
  page,
  request,
}) => {
  const engineError = process.env[ENGINE_ERROR_VARIABLE];
  expect(engineError, `No Docker engine could be started: ${engineError ?? ''}`).toBeUndefined();
  const creator = await registerCreator(request, 'real-sheets-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Spreadsheet Journey',
    codingWorkspace: { enabled: true, saveFilesInResults: true, workspaceType: 'excel', allowPackageRegistries: false },
    questions: [question.shortAnswer('Double the number in A1 in A2', ['42'])],
  });
  await enterExam(page, exam.id, { name: 'Dan Bricklin', studentId: 'C-1979' });
  const frame = await workspaceFrame(page);

  await test.step('types a number and a formula into the grid', async () => {
    await frame.waitForFunction(() => (globalThis as unknown as { examSheets?: unknown }).examSheets, null, {
      timeout: 120_000,
    });
    await expect.poll(() => frame.textContent('#save-status'), { timeout: 60_000 }).not.toBe('Loading…');
    type Rect = { x: number; y: number; width: number; height: number };
    const cell = await frame.evaluate(() => {
      type Api = { getActiveWorkbook(): { getActiveSheet(): { getRange(a: string): { getCellRect(): Rect } } } };
      const api = (globalThis as unknown as { examSheets: { univerAPI: Api } }).examSheets.univerAPI;
      return api.getActiveWorkbook().getActiveSheet().getRange('A1').getCellRect();
    });
    // The grid is Univer's largest canvas; the cell's rectangle is relative to it (boundingBox is in page terms).
    const boxes = await Promise.all((await frame.locator('canvas').all()).map((c) => c.boundingBox()));
    const grid = boxes.filter((b) => b !== null).sort((a, b) => b.width * b.height - a.width * a.height)[0]!;
    await page.mouse.click(grid.x + cell.x + cell.width / 2, grid.y + cell.y + cell.height / 2);
    await page.keyboard.type('21');
    await page.keyboard.press('Enter');
    await page.keyboard.type('=A1*2');
    await page.keyboard.press('Enter');
    await expect.poll(() => frame.textContent('#save-status'), { timeout: 30_000 }).toMatch(/^Saved /);
  });

  await test.step('submits; the grader opens the workbook', async () => {
    await page.getByRole('textbox', { name: 'Answer for Q1' }).fill('42');
    await submitExam(page);
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await openOnlyResult(page, request, creator);
    await page.getByRole('button', { name: 'Open workbook.xlsx' }).click();
    const dialog = page.getByRole('dialog', { name: 'workbook.xlsx' });
    await expect(dialog.getByRole('button', { name: 'A1: 21' })).toBeVisible({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'A2: 42' }).click();
    await expect(dialog.getByText('A2: =A1*2 → 42')).toBeVisible();
  });
});

/**
 * Issue 35: the Oracle SQL workspace is a SQL workbench (Adminer) on the candidate's own database seeded by the
 * question's setup script; a query run there is collected (queries.sql) and listed for the grader.
 */
test('a SQL question’s queries run in the workbench are collected for the grader', async ({ page, request }) => {
  const engineError = process.env[ENGINE_ERROR_VARIABLE];
  expect(engineError, `No Docker engine could be started: ${engineError ?? ''}`).toBeUndefined();
  const creator = await registerCreator(request, 'real-sql-creator');
  const setupScript =
    "CREATE TABLE employees (name TEXT, salary INTEGER);\nINSERT INTO employees VALUES ('Ada', 72000), ('Grace', 81000), ('Linus', 50000);";
  const exam = await publishExam(request, creator.token, {
    title: 'SQL Journey',
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'oracle-sql',
      allowPackageRegistries: false,
    },
    questions: [{ ...question.coding('Who earns more than 60000?', 'sql'), setupScript }],
  });
  await enterExam(page, exam.id, { name: 'Edgar Codd', studentId: 'C-1970' });
  const frame = await workspaceFrame(page);
  const QUERY = 'SELECT name FROM employees WHERE salary > 60000 ORDER BY name;';

  await test.step('runs a query in the workbench on the seeded table', async () => {
    // Adminer's SQL command box: its highlighting editor (a contenteditable in place of the textarea) where it runs.
    const box = frame.locator('.sqlarea:visible').first();
    await expect(box).toBeVisible({ timeout: 120_000 });
    await box.click();
    await page.keyboard.type(QUERY);
    await frame.locator('input[type="submit"][value="Execute"]').click();
    await expect(frame.locator('table').filter({ hasText: 'Grace' }).first()).toBeVisible({ timeout: 30_000 });
    await expect(frame.getByText('Linus')).toHaveCount(0);
  });

  await test.step('submits; the grader reads the statements run', async () => {
    await submitExam(page);
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await openOnlyResult(page, request, creator);
    await page.getByRole('button', { name: 'Open queries.sql' }).click();
    const dialog = page.getByRole('dialog', { name: 'queries.sql' });
    await expect(dialog.getByRole('list', { name: 'Statements run' })).toContainText(
      'SELECT name FROM employees WHERE salary > 60000',
    );
  });
});
