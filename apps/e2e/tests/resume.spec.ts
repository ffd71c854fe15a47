import { ResumeMessages } from '@exam/domain/attempt-binding';
import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getAttempt, publishExam, question, registerCreator } from './support/api.ts';
import { enterExam, examUrl, storedAttempt } from './support/taker.ts';
import { expectToast, signInCreator } from './support/ui.ts';
import { E2E } from './support/env.ts';

/** The details form and the briefing up to the click on Start Exam, without expecting the exam page (it may ask for a code). */
async function giveDetails(page: Page, examId: string, candidate: { name: string; studentId: string }) {
  await page.goto(`${E2E.takerOrigin}/taker/start`);
  await page.getByLabel('Exam URL').fill(examUrl(examId));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectToast(page, 'Valid exam found! Redirecting...');
  await page.getByLabel('Full Name').fill(candidate.name);
  await page.getByLabel('Candidate ID').fill(candidate.studentId);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Start Exam' }).click();
}

/** Integrity: knowing a candidate's ID is not enough to take over their attempt; their resume code is. */
test("a second device needs the resume code shown on the first, a third the examiner's unlock; the same browser resumes silently", async ({
  page,
  browser,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Resume Journey',
    timerEnabled: true,
    timerMinutes: 30,
    questions: [
      question.mcq('Capital of France', ['Berlin', 'Paris', 'Rome'], 'Paris'),
      question.shortAnswer('Largest planet', ['Jupiter']),
    ],
  });
  const candidate = { name: 'Ada Lovelace', studentId: 'R-1815' };
  const answered = (p: Page) => p.getByTestId('answered-count');

  await enterExam(page, exam.id, candidate);
  const attempt = await storedAttempt(page, exam.id);

  await test.step('the candidate answers on the first device', async () => {
    await page.getByRole('radio', { name: 'Paris' }).check();
    await page.getByLabel('Answer for Q2').fill('Jupiter');
    await expect(answered(page)).toHaveText('Answered: 2/2');
    await expect
      .poll(async () => Object.keys((await getAttempt(request, attempt.token, attempt.attemptId)).answers).sort())
      .toEqual(['0', '1']);
  });

  let code = '';
  await test.step("the exam menu shows the candidate's resume code", async () => {
    await page.getByRole('button', { name: 'Resume code' }).click();
    code = ((await page.getByTestId('resume-code').textContent()) ?? '').trim();
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    await expectAccessible(page, 'exam room with the resume code open');
  });

  await test.step('a reload on the same browser resumes silently with the answers', async () => {
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
    await expect(answered(page)).toHaveText('Answered: 2/2');
    await expect(page.getByRole('radio', { name: 'Paris' })).toBeChecked();
  });

  await test.step('entering the details again on the same browser, in other case, resumes without a code', async () => {
    await giveDetails(page, exam.id, { name: candidate.name, studentId: '  r-1815 ' });
    await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
    await expect(answered(page)).toHaveText('Answered: 2/2');
    expect((await storedAttempt(page, exam.id)).attemptId).toBe(attempt.attemptId);
  });

  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await test.step('another browser with the same name and ID is asked for the resume code, and sees nothing', async () => {
      await giveDetails(second, exam.id, candidate);
      await expect(second.getByTestId('resume-code-notice')).toHaveText(ResumeMessages.required);
      await expect(second.getByLabel('Resume code')).toBeVisible();
      await expect(second).toHaveURL(/\/taker\/credentials$/);
      await expect(second.getByText('Jupiter')).toHaveCount(0);
    });

    await test.step('a wrong code is refused with its message', async () => {
      await second.getByLabel('Resume code').fill('ZZZZ-ZZZZ');
      await second.getByRole('button', { name: 'Start Exam' }).click();
      await expect(second.getByText(ResumeMessages.wrong)).toBeVisible();
      await expectAccessible(second, 'credentials page asking for the resume code, after a wrong one');
      await expect(second).toHaveURL(/\/taker\/credentials$/);
    });

    await test.step('the right code resumes the same attempt with its answers', async () => {
      await second.getByLabel('Resume code').fill(code);
      await second.getByRole('button', { name: 'Start Exam' }).click();
      await expect(second).toHaveURL(new RegExp(`/exam/${exam.id}$`));
      await expect(answered(second)).toHaveText('Answered: 2/2');
      await expect(second.getByRole('radio', { name: 'Paris' })).toBeChecked();
      await expect(second.getByLabel('Answer for Q2')).toHaveValue('Jupiter');
      expect((await storedAttempt(second, exam.id)).attemptId).toBe(attempt.attemptId);
      // The second device now knows the code too.
      await second.getByRole('button', { name: 'Resume code' }).click();
      await expect(second.getByTestId('resume-code')).toHaveText(code);
    });
  } finally {
    await other.close();
  }

  const examiner = await browser.newContext();
  const third = await browser.newContext();
  try {
    let unlockCode = '';
    await test.step("the examiner unlocks the candidate's attempt on the exam's submissions page and gets a one-time code", async () => {
      const creatorPage = await examiner.newPage();
      await signInCreator(creatorPage, creator);
      await creatorPage.goto(`${E2E.creatorOrigin}/creator/exam-insights/${exam.id}/submissions`);
      await creatorPage.getByLabel('Candidate ID').fill('r-1815');
      await creatorPage.getByRole('button', { name: 'Unlock resume' }).click();
      const status = creatorPage.getByTestId('unlock-status');
      await expect(status).toContainText('Give Ada Lovelace (R-1815) the unlock code');
      unlockCode = /unlock code ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec((await status.textContent()) ?? '')?.[1] ?? '';
      expect(unlockCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
      await expectAccessible(creatorPage, 'submissions page after an unlock');
    });

    await test.step('the candidate ID alone still continues nothing; the unlock code does, with a new code of its own', async () => {
      const page3 = await third.newPage();
      await giveDetails(page3, exam.id, candidate);
      await expect(page3.getByTestId('resume-code-notice')).toHaveText(ResumeMessages.required);
      await page3.getByLabel('Resume code').fill(unlockCode);
      await page3.getByRole('button', { name: 'Start Exam' }).click();
      await expect(page3).toHaveURL(new RegExp(`/exam/${exam.id}$`));
      await expect(answered(page3)).toHaveText('Answered: 2/2');
      await page3.getByRole('button', { name: 'Resume code' }).click();
      await expect(page3.getByTestId('resume-code')).not.toHaveText(code);
    });
  } finally {
    await third.close();
    await examiner.close();
  }
});
