import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { getAttempt, getResult, listResults, publishExam, question, registerCreator } from './support/api.ts';
import { enterExam, storedAttempt, submitExam, type StoredAttempt } from './support/taker.ts';

async function serverAnswer(request: APIRequestContext, attempt: StoredAttempt, index: number): Promise<string> {
  return (await getAttempt(request, attempt.token, attempt.attemptId)).answers[String(index)]?.answer ?? '';
}

/** Drops a file on an element as a browser's drag and drop would, with the file in the event's DataTransfer. */
async function dropFile(page: Page, testId: string, name: string, text: string): Promise<void> {
  const transfer = await page.evaluateHandle(
    ([fileName, content]) => {
      const data = new DataTransfer();
      data.items.add(new File([content], fileName, { type: 'text/plain' }));
      return data;
    },
    [name, text] as const,
  );
  const zone = page.getByTestId(testId);
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

/** Issue 15: an exam shown one question at a time, sat with the navigation, a mark for review, shortcuts and the file input. */
test('a candidate sits a one-question-at-a-time exam with the navigation, a mark for review, the shortcuts and the file input', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Navigation Journey',
    questionDisplay: 'one',
    questions: [
      question.mcq('Pick a colour', ['Red', 'Green'], 'Green'),
      question.shortAnswer('Capital of France', ['Paris']),
      question.fileUpload('Upload your report'),
      question.shortAnswer('Largest planet', ['Jupiter']),
    ],
  });
  await enterExam(page, exam.id, { name: 'Grace Hopper', studentId: 'NAV-1' });
  const attempt = await storedAttempt(page, exam.id);
  const nav = page.getByRole('navigation', { name: 'Questions' });
  const position = page.getByTestId('question-position');
  const heading = (name: string) => page.getByRole('heading', { name });

  await test.step('one question is shown, with its position, Previous and Next', async () => {
    await expect(position).toHaveText('Question 1 of 4');
    await expect(heading('Q1: Pick a colour')).toBeVisible();
    await expect(heading('Q2: Capital of France')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await expect(nav.getByRole('button', { name: 'Question 1, not answered' })).toHaveAttribute('aria-current', 'true');
    await page.getByRole('radio', { name: 'Green' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(position).toHaveText('Question 2 of 4');
    await expect(page.getByTestId('question-1')).toBeFocused();
  });

  await test.step('the shortcuts switch questions while typing, and nothing typed is lost', async () => {
    await page.getByLabel('Answer for Q2').fill('Paris');
    await page.getByLabel('Answer for Q2').focus();
    await page.keyboard.press('Alt+PageDown');
    await expect(heading('Q3: Upload your report')).toBeVisible();
    await page.keyboard.press('Alt+PageUp');
    await expect(page.getByLabel('Answer for Q2')).toHaveValue('Paris');
    await expect.poll(() => serverAnswer(request, attempt, 1)).toBe('Paris');
    await expect(page.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-keyshortcuts', 'Alt+PageDown');
  });

  await test.step('a question marked for review shows so in the navigation, also after a reload', async () => {
    await page.getByRole('button', { name: 'Mark for review' }).click();
    await expect(page.getByRole('button', { name: 'Mark for review' })).toHaveAttribute('aria-pressed', 'true');
    const flagged = nav.getByRole('button', { name: 'Question 2, answered, marked for review' });
    await expect(flagged).toBeVisible();
    await page.reload();
    await expect(flagged).toBeVisible();
    await expect(position).toHaveText('Question 1 of 4');
  });

  await test.step('a file dropped on the drop zone is uploaded, then replaced through the picker', async () => {
    await nav.getByRole('button', { name: 'Question 3, not answered' }).click();
    await expect(page.getByTestId('question-2')).toBeFocused();
    await expect(page.getByText('No file chosen')).toHaveCount(0);
    await dropFile(page, 'file-drop-2', 'draft.txt', 'first draft\n');
    await expect(page.getByTestId('file-name-2')).toHaveText('draft.txt');
    await expect(page.getByTestId('file-answer-2')).toContainText('12 B');
    await expect(page.getByTestId('file-answer-2').getByRole('status')).toContainText('Uploaded');
    await expect.poll(() => serverAnswer(request, attempt, 2)).toBe('File: draft.txt');

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Replace draft.txt' }).click();
    await (
      await chooser
    ).setFiles({ name: 'final.txt', mimeType: 'text/plain', buffer: Buffer.from('final report\n') });
    await expect(page.getByTestId('file-name-2')).toHaveText('final.txt');
    await expect.poll(() => serverAnswer(request, attempt, 2)).toBe('File: final.txt');
  });

  await test.step('Remove leaves the question unanswered on the server; a new file answers it again', async () => {
    await page.getByRole('button', { name: 'Remove final.txt' }).click();
    await expect(page.getByTestId('file-answer-2')).toHaveCount(0);
    await expect(nav.getByRole('button', { name: 'Question 3, not answered' })).toBeVisible();
    await expect.poll(() => serverAnswer(request, attempt, 2)).toBe('');
    await page
      .getByLabel('Upload file for Q3')
      .setInputFiles({ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from('the report\n') });
    await expect.poll(() => serverAnswer(request, attempt, 2)).toBe('File: report.txt');
  });

  await test.step('the last question, then the submit dialog lists the one marked for review', async () => {
    await page.keyboard.press('Alt+PageDown');
    await expect(position).toHaveText('Question 4 of 4');
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    await page.getByLabel('Answer for Q4').fill('Jupiter');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Submit exam?' });
    const marked = dialog.getByRole('navigation', { name: 'Questions marked for review' });
    await expect(marked).toContainText('1 question marked for review:');
    await expect(marked.getByRole('link')).toHaveText(['Q2: Capital of France']);
    await dialog.getByRole('button', { name: 'Keep working' }).click();
    await submitExam(page, { answered: 4, total: 4 });
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step('the result holds every answer and the final file', async () => {
    const [summary] = await listResults(request, creator.token);
    expect(summary).toBeDefined();
    const detail = await getResult(request, creator.token, summary?.id ?? '');
    expect(detail.questionAnswers.map((q) => q.answer)).toEqual(['Green', 'Paris', 'File: report.txt', 'Jupiter']);
    expect(detail.questionAnswers[2]?.file).toMatchObject({ fileName: 'report.txt' });
  });
});
