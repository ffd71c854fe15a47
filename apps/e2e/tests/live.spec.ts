import { EndedByExaminerMessage } from '@exam/domain/live';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getAttempt, publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { countdownSeconds, enterExam, storedAttempt } from './support/taker.ts';
import { expectToast, signInCreator } from './support/ui.ts';

/** The promise: an announcement reaches every candidate's page within 5 s. */
const WITHIN_5_S = { timeout: 5_000 };

test('a proctor watches the exam live, announces, ends an attempt and extends a candidate’s time', async ({
  page,
  browser,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Live Journey',
    timerEnabled: true,
    timerMinutes: 30,
    questions: [
      question.mcq('Capital of France', ['Berlin', 'Paris', 'Rome'], 'Paris'),
      question.shortAnswer('Largest planet', ['Jupiter']),
      question.shortAnswer('Smallest prime', ['2']),
    ],
  });
  const ada = { name: 'Ada Lovelace', studentId: 'L-1815' };
  const bob = { name: 'Bob Kahn', studentId: 'L-1938' };

  // Each candidate in a browser of their own; the proctor in a third.
  await enterExam(page, exam.id, ada);
  const bobContext = await browser.newContext();
  const bobPage = await bobContext.newPage();
  await enterExam(bobPage, exam.id, bob);
  const proctorContext = await browser.newContext();
  const proctor = await proctorContext.newPage();

  await test.step('the candidates answer; the proctor sees them with their answered counts', async () => {
    await page.getByRole('radio', { name: 'Paris' }).check();
    await page.getByLabel('Answer for Q2').fill('Jupiter');
    await bobPage.getByLabel('Answer for Q3').fill('2');
    const adaAttempt = await storedAttempt(page, exam.id);
    await expect
      .poll(async () => Object.keys((await getAttempt(request, adaAttempt.token, adaAttempt.attemptId)).answers).length)
      .toBe(2);

    await signInCreator(proctor, creator);
    await proctor.goto(`${E2E.creatorOrigin}/creator/dashboard`);
    await proctor
      .getByRole('table', { name: 'Published Exams' })
      .getByRole('row')
      .filter({ hasText: 'Live Journey' })
      .getByRole('button', { name: 'More actions' })
      .click();
    await proctor.getByRole('menuitem', { name: 'Live view' }).click();
    await expect(proctor).toHaveURL(new RegExp(`/creator/exam-live/${exam.id}$`));
    await expect(proctor.getByRole('heading', { name: 'Live: Live Journey' })).toBeVisible();
    const adaRow = proctor.getByRole('row').filter({ hasText: ada.studentId });
    await expect(adaRow.getByTestId('answered')).toHaveText('2 / 3');
    await expect(adaRow).toContainText('In progress');
    await expect(proctor.getByRole('row').filter({ hasText: bob.studentId }).getByTestId('answered')).toHaveText(
      '1 / 3',
    );
    await expectAccessible(proctor, 'live view');
  });

  await test.step('an announcement appears on the candidates’ pages within 5 s', async () => {
    await proctor.getByLabel('Announcement to all candidates').fill('Question 3 asks for a number, not a word.');
    await proctor.getByRole('button', { name: 'Send announcement' }).click();
    await expectToast(proctor, 'Announcement sent');
    const banner = page.getByRole('region', { name: 'Announcements from the examiner' });
    await expect(banner.getByText('Question 3 asks for a number, not a word.')).toBeVisible(WITHIN_5_S);
    await expect(
      bobPage
        .getByRole('region', { name: 'Announcements from the examiner' })
        .getByText('Question 3 asks for a number, not a word.'),
    ).toBeVisible(WITHIN_5_S);
    await expectAccessible(page, 'exam room with an announcement');
    await expect(
      proctor.getByRole('list', { name: 'Announcements sent' }).getByText('Question 3 asks for a number, not a word.'),
    ).toBeVisible();
    // Dismissed, it stays out of the candidate's way.
    await page.getByRole('button', { name: /^Dismiss announcement/ }).click();
    await expect(banner.getByText('Question 3 asks for a number, not a word.')).toBeHidden();
  });

  await test.step('the proctor ends Bob’s attempt: his page shows the completion page saying so', async () => {
    const bobRow = proctor.getByRole('row').filter({ hasText: bob.studentId });
    await bobRow.getByRole('button', { name: `End attempt of ${bob.name} (${bob.studentId})` }).click();
    const confirm = proctor.getByRole('alertdialog', { name: 'End this attempt?' });
    await confirm.getByRole('button', { name: 'End attempt' }).click();
    await expectToast(proctor, `Ended the attempt of ${bob.name}`);
    await expect(bobRow).toContainText('Ended by examiner');

    await expect(bobPage.getByRole('heading', { name: 'Exam Completed' })).toBeVisible({ timeout: 10_000 });
    await expect(bobPage.getByTestId('completion-notice')).toHaveText(EndedByExaminerMessage);
    await expect(bobPage.getByTestId('answered-summary')).toHaveText('Questions Answered: 1 of 3');
    await expectAccessible(bobPage, 'completion page after the examiner ended the attempt');
    // Ada is not affected.
    await expect(page.getByTestId('answered-count')).toBeVisible();
    await expect(proctor.getByRole('row').filter({ hasText: ada.studentId })).toContainText('In progress');
  });

  await test.step('the proctor gives Ada 10 more minutes: her countdown grows', async () => {
    const before = await countdownSeconds(page);
    await proctor.getByRole('button', { name: `Extend time for ${ada.name} (${ada.studentId})` }).click();
    const dialog = proctor.getByRole('dialog', { name: 'Extend time' });
    await dialog.getByLabel('Minutes to add').fill('10');
    await expectAccessible(proctor, 'extend time dialog');
    await dialog.getByRole('button', { name: 'Extend time' }).click();
    await expectToast(proctor, `${ada.name} has 10 more minutes`);
    await expect.poll(() => countdownSeconds(page), { timeout: 10_000 }).toBeGreaterThan(before + 9 * 60);
  });

  await bobContext.close();
  await proctorContext.close();
});
