import { expect, type Page } from '@playwright/test';
import { expectAccessibleOnce } from './a11y.ts';
import { E2E } from './env.ts';
import { expectToast } from './ui.ts';

export const examUrl = (examId: string) => `${E2E.takerOrigin}/exam/${examId}`;

/** The candidate's way in: paste the link at /taker/start, give name and ID, read the briefing, start. */
export async function enterExam(
  page: Page,
  examId: string,
  candidate: { name: string; studentId: string },
): Promise<void> {
  await page.goto(`${E2E.takerOrigin}/taker/start`);
  await expect(page.getByLabel('Exam URL')).toBeVisible();
  await expectAccessibleOnce(page, 'taker start page');
  await page.getByLabel('Exam URL').fill(examUrl(examId));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectToast(page, 'Valid exam found! Redirecting...');
  await expect(page).toHaveURL(/\/taker\/credentials$/);
  await expect(page.getByLabel('Full Name')).toBeVisible();
  await expectAccessibleOnce(page, 'taker credentials page');
  await page.getByLabel('Full Name').fill(candidate.name);
  await page.getByLabel('Candidate ID').fill(candidate.studentId);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: 'Start Exam' })).toBeVisible();
  await expectAccessibleOnce(page, 'taker briefing page');
  await page.getByRole('button', { name: 'Start Exam' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam/${examId}$`));
  await expect(page.getByTestId('answered-count')).toBeVisible();
}

export type StoredAttempt = { attemptId: string; token: string; deadline: string | null };

/**
 * Submits from the header: Submit opens the confirmation ("Submit exam?") and only its "Submit exam"
 * button submits. `expectAnswered` checks the dialog's "You have answered N of M questions." first.
 */
export async function submitExam(page: Page, expectAnswered?: { answered: number; total: number }): Promise<void> {
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Submit exam?' });
  await expect(dialog).toBeVisible();
  await expectAccessibleOnce(page, 'submit confirmation dialog');
  if (expectAnswered)
    await expect(dialog).toContainText(
      `You have answered ${expectAnswered.answered} of ${expectAnswered.total} questions.`,
    );
  await dialog.getByRole('button', { name: 'Submit exam' }).click();
}

/** The attempt this browser holds for an exam, as the taker app keeps it in IndexedDB ('exam-taker'). */
export async function storedAttempt(page: Page, examId: string): Promise<StoredAttempt> {
  const stored = await page.evaluate(
    (id) =>
      new Promise<StoredAttempt | undefined>((resolve, reject) => {
        const open = indexedDB.open('exam-taker');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('attempts').objectStore('attempts').get(id);
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            open.result.close();
            resolve(read.result as StoredAttempt | undefined);
          };
        };
      }),
    examId,
  );
  expect(stored, 'the taker app keeps the attempt in IndexedDB').toBeDefined();
  return stored as StoredAttempt;
}

/** Seconds shown by the header's countdown (m:ss). */
export async function countdownSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer', { name: 'Time remaining' }).textContent()) ?? '';
  const match = /(\d+):(\d{2})/.exec(text);
  expect(match, `countdown text "${text}"`).not.toBeNull();
  return Number(match?.[1]) * 60 + Number(match?.[2]);
}
