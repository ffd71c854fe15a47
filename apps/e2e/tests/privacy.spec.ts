import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import type { InsightsReport } from '@exam/domain/insights';
import type { APIRequestContext } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { E2E } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import { listResults, publishExam, question, registerCreator, sitExam } from './support/api.ts';
import { signInCreator } from './support/ui.ts';

/** The entries of a ZIP by name, read from its local headers (stored or deflated, as fflate writes them). */
function unzip(zip: Buffer): Record<string, Buffer> {
  const entries: Record<string, Buffer> = {};
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const method = zip.readUInt16LE(at + 8);
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extraLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extraLength;
    const data = zip.subarray(start, start + size);
    entries[name] = method === 8 ? inflateRawSync(data) : Buffer.from(data);
    at = start + size;
  }
  return entries;
}

async function insightsOf(request: APIRequestContext, token: string, examId: string): Promise<InsightsReport> {
  const response = await request.get(`${E2E.creatorOrigin}/api/exams/${examId}/insights`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as InsightsReport;
}

/**
 * A candidate asks for their data, then for its deletion (docs/product.md#candidate-data): the exam's owner exports it
 * as a ZIP from the exam's submissions page, then erases it after typing the candidate ID again; the result leaves
 * the results and the insights, and the erasure is listed as complete.
 */
test("the owner exports a candidate's data and erases it everywhere", async ({ page, request }) => {
  const creator = await registerCreator(request, 'privacy-owner');
  const exam = await publishExam(request, creator.token, {
    title: 'Privacy Journey',
    questions: [
      question.shortAnswer('Which organelle makes ATP?', ['mitochondria']),
      question.mcq('Largest planet', ['Mars', 'Jupiter'], 'Jupiter'),
    ],
  });
  await sitExam(request, { examId: exam.id, name: 'Erin Erased', studentId: 'PRV-7' }, [
    'The mitochondria, powerhouse of the cell',
    'Jupiter',
  ]);
  await sitExam(request, { examId: exam.id, name: 'Kim Kept', studentId: 'PRV-8' }, ['chloroplast', 'Mars']);
  expect((await insightsOf(request, creator.token, exam.id)).candidates).toHaveLength(2);

  await signInCreator(page, creator);
  await page.goto(`/creator/exam-insights/${exam.id}/submissions`);
  const card = page.getByRole('heading', { name: "Candidates' data" });
  await card.scrollIntoViewIfNeeded();
  await page.getByRole('textbox', { name: 'Candidate for a data request' }).fill('PRV-7');

  await test.step('exports the candidate data as a ZIP that holds the answer', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('candidate-data-PRV-7.zip');
    const zip = unzip(readFileSync(await file.path()));
    expect(Object.keys(zip)).toEqual(
      expect.arrayContaining([
        'README.txt',
        'exam-service.json',
        'results-service.json',
        'llm-gateway.json',
        'workspace-orchestrator.json',
      ]),
    );
    const results = zip['results-service.json']!.toString('utf8');
    expect(results).toContain('The mitochondria, powerhouse of the cell');
    expect(results).not.toContain('chloroplast');
    expect(zip['README.txt']!.toString('utf8')).toContain('results-service.json');
    await expect(page.getByRole('status').filter({ hasText: 'Saved candidate-data-PRV-7.zip' })).toBeVisible();
  });

  await test.step('erases it after the candidate ID is typed again', async () => {
    await page.getByRole('button', { name: 'Erase data' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Erase the data of PRV-7?' });
    await expect(dialog).toBeVisible();
    const confirm = dialog.getByRole('button', { name: 'Erase data' });
    await expect(confirm).toBeDisabled();
    await expectAccessible(page, 'erase candidate data dialog');
    await dialog.getByRole('textbox', { name: 'Type PRV-7 to confirm' }).fill('PRV-7');
    await confirm.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'erased in every service' })).toBeVisible();
    const erasures = page.getByTestId('erasure-list');
    await expect(erasures).toContainText('On request, 1 attempt');
    await expect(erasures).toContainText('Complete');
    await expectAccessible(page, 'submissions page with an erasure');
  });

  await test.step('the result is gone from the results and from insights', async () => {
    await expect(page.getByTestId('submission-row')).toHaveCount(1);
    await expect(page.getByTestId('submission-row')).toContainText('Kim Kept');
    const results = (await listResults(request, creator.token)).filter((r) => r.examId === exam.id);
    expect(results.map((r) => r.studentId)).toEqual(['PRV-8']);
    const insights = await insightsOf(request, creator.token, exam.id);
    expect(insights.candidates.map((c) => c.studentId)).toEqual(['PRV-8']);
  });
});
