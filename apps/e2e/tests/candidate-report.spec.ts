import { ReportMessages } from '@exam/domain/candidate-report';
import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { publishExam, question, registerCreator, sitExam } from './support/api.ts';
import { signInCreator } from './support/ui.ts';

/** A4 at 96 px per inch, less the 12 mm margins of the app's @page rule (index.css). */
const MM = 96 / 25.4;
const PRINTABLE = { width: Math.floor((210 - 24) * MM), height: Math.floor((297 - 24) * MM) };

/** The pages of a PDF: its page objects (`/Type /Page`, not the `/Pages` tree). */
const pageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;

/** The PDF's /Title, written either as a literal string or as UTF-16BE hex with its byte-order mark. */
function pdfTitle(pdf: Buffer): string | undefined {
  const text = pdf.toString('latin1');
  const literal = /\/Title\s*\(([^)]*)\)/.exec(text);
  if (literal) return literal[1];
  const hex = /\/Title\s*<FEFF([0-9A-Fa-f]*)>/i.exec(text);
  return hex ? Buffer.from(hex[1]!, 'hex').swap16().toString('utf16le') : undefined;
}

async function reportHeightInPrint(page: Page): Promise<number> {
  await page.setViewportSize(PRINTABLE);
  await page.emulateMedia({ media: 'print' });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.emulateMedia({ media: 'screen' });
  return height;
}

/**
 * A hiring panel reads a candidate's report (docs/product.md#candidate-report): the creator shares one attempt by an
 * expiring link, a browser with no session opens it, reads the figures and prints it to a one-page PDF; once the
 * creator revokes the link it opens nothing. Four one-point questions on two topics; five candidates:
 *
 *            right   %     the report's percentile for Grace (mid-rank): 2 below, 2 equal → (2 + 1) / 5 = 60
 *   P-1      1       25
 *   P-2      2       50
 *   Grace    3       75    Algebra 2 / 2, Geometry 1 / 2
 *   P-4      3       75
 *   P-5      4       100
 */
test('a creator shares a candidate report that a fresh browser opens, prints on one page, and stops after revoke', async ({
  page,
  browser,
  request,
}) => {
  const creator = await registerCreator(request, 'report-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Report Journey',
    timerEnabled: true,
    timerMinutes: 20,
    questions: [
      question.mcq('Solve x + 1 = 2', ['0', '1', '2'], '1', 'Algebra'),
      question.mcq('Angles in a triangle', ['90', '180', '360'], '180', 'Geometry'),
      question.mcq('Solve 2x = 6', ['2', '3', '6'], '3', 'Algebra'),
      question.mcq('Sides of a hexagon', ['5', '6', '8'], '6', 'Geometry'),
    ],
  });
  const right = ['1', '180', '3', '6'];
  const wrong = ['0', '90', '2', '5'];
  const answers = (n: number) => right.map((r, i) => (i < n ? r : wrong[i]!));
  await sitExam(request, { examId: exam.id, name: 'Pat One', studentId: 'P-1' }, answers(1));
  await sitExam(request, { examId: exam.id, name: 'Pat Two', studentId: 'P-2' }, answers(2));
  const grace = await sitExam(request, { examId: exam.id, name: 'Grace Hopper', studentId: 'R-0042' }, answers(3));
  await sitExam(request, { examId: exam.id, name: 'Pat Four', studentId: 'P-4' }, answers(3));
  await sitExam(request, { examId: exam.id, name: 'Pat Five', studentId: 'P-5' }, answers(4));

  let link = '';
  await test.step('the creator makes a 7-day link on the result page', async () => {
    await signInCreator(page, creator);
    await page.goto(`/creator/result/${grace.resultId}`);
    const panel = page.getByRole('heading', { name: 'Share report' });
    await panel.scrollIntoViewIfNeeded();
    await page.getByRole('combobox', { name: 'Link valid for' }).click();
    await page.getByRole('option', { name: '7 days' }).click();
    await page.getByRole('button', { name: 'Create link' }).click();
    const field = page.getByLabel('New report link');
    await expect(field).toHaveValue(/\/report\/[A-Za-z0-9_-]{43}$/);
    link = await field.inputValue();
    await expect(page.getByTestId('report-link')).toHaveCount(1);
    await expect(page.getByTestId('report-link')).toContainText('Active');
    await expectAccessible(page, 'result page with a report link');
  });

  const panel = await browser.newContext();
  const reader = await panel.newPage();
  await test.step('a browser with no session opens the link and reads the report', async () => {
    expect(await panel.storageState()).toEqual({ cookies: [], origins: [] });
    await reader.goto(link);
    await expect(reader.getByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeVisible();
    await expect(reader.getByText('R-0042')).toBeVisible();
    await expect(reader.getByText('Report Journey')).toBeVisible();
    await expect(reader.getByTestId('report-score')).toHaveText('75%');
    await expect(reader.getByText('3 of 4 points')).toBeVisible();
    const topics = reader.getByRole('table');
    await expect(topics.getByRole('row', { name: /Algebra/ })).toContainText('2 / 2');
    await expect(topics.getByRole('row', { name: /Geometry/ })).toContainText('1 / 2');
    await expect(reader.getByTestId('report-percentile')).toHaveText(
      '60th percentile among 5 candidates with a graded result.',
    );
    await expect(reader.getByTestId('report-time')).toHaveText(/^Took \d+ s of the 20 min allowed\.$/);
    await expect(reader.getByRole('heading', { name: 'How to read this report' })).toBeVisible();
    // Nothing of the answers or the keys: the options the candidates picked appear nowhere.
    await expect(reader.getByText('Angles in a triangle')).toHaveCount(0);
    await expect(reader.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex,nofollow');
    await expectAccessible(reader, 'candidate report');
  });

  await test.step('the report prints to a one-page PDF that names the candidate', async () => {
    await expect(reader.getByRole('button', { name: 'Print or save as PDF' })).toBeVisible();
    expect(await reportHeightInPrint(reader)).toBeLessThanOrEqual(PRINTABLE.height);
    const pdf = await reader.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pageCount(pdf)).toBe(1);
    expect(pdfTitle(pdf)).toBe('Candidate report: Grace Hopper');
  });

  await test.step('the creator revokes the link; the report no longer opens', async () => {
    const row = page.getByTestId('report-link');
    await row.getByRole('button', { name: /^Revoke the link created/ }).click();
    await expect(row).toContainText('Revoked');
    await reader.reload();
    await expect(reader.getByRole('heading', { name: 'Report not available' })).toBeVisible();
    await expect(reader.getByRole('alert')).toHaveText(ReportMessages.notFound);
    await expect(reader.getByText('Grace Hopper')).toHaveCount(0);
  });
  await panel.close();
});
