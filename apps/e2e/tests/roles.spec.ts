import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { E2E } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import { publishExam, question, registerCreator, sitExam, startAttempt } from './support/api.ts';
import { expectToast, signInCreator, tableRow } from './support/ui.ts';

const ADA = { name: 'Ada Lovelace', studentId: 'R-001' };
const BOB = { name: 'Bob Babbage', studentId: 'R-002' };
const TITLE = 'Roles Journey';

/** The exam's own menu (ExamNav): the pages the signed-in creator's role opens. */
const examNav = (page: Page) => page.getByRole('navigation', { name: 'Exam pages' });

/** A page opened by its URL that is outside the role says so plainly, with the role and what it does not allow. */
async function expectRefused(page: Page, url: string, role: string, reason: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'This page is not part of your role' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: reason })).toContainText(`You are ${role} on “${TITLE}”.`);
}

/**
 * An owner shares an exam with a grader and a proctor, who then do their jobs and nothing more: the grader marks a
 * submission but sees no Edit, Sharing or Live; the proctor watches the live table but sees no Edit or Results; a
 * page outside either role, opened by its URL, is refused in plain words. The owner reads who did what.
 */
test('an owner shares an exam with a grader and a proctor, who do their jobs and nothing more', async ({
  page,
  browser,
  request,
}) => {
  const owner = await registerCreator(request, 'owner');
  const grader = await registerCreator(request, 'grader');
  const proctor = await registerCreator(request, 'proctor');
  const exam = await publishExam(request, owner.token, {
    title: TITLE,
    timerEnabled: true,
    timerMinutes: 30,
    questions: [
      question.mcq('Capital of France', ['Berlin', 'Paris'], 'Paris', 'Geography'),
      question.shortAnswer('Largest planet', ['Jupiter'], 'Astronomy'),
    ],
  });
  // Ada has submitted (the grader's work); Bob is sitting it now (the proctor's).
  await sitExam(request, { examId: exam.id, ...ADA }, ['Paris', 'the planet Jupiter']);
  await startAttempt(request, { examId: exam.id, ...BOB });
  const submissionsUrl = `/creator/exam-insights/${exam.id}/submissions`;

  await test.step('the owner shares the exam from its own menu: a grader and a proctor', async () => {
    await signInCreator(page, owner);
    await page.goto(`/creator/exam-published/${exam.id}`);
    await examNav(page).getByRole('link', { name: 'Sharing' }).click();
    await expect(page.getByRole('heading', { name: `Sharing: ${TITLE}` })).toBeVisible();

    await page.getByLabel('E-mail address').fill(grader.user.email);
    await page.getByRole('button', { name: 'Share' }).click();
    await expectToast(page, `Shared with ${grader.user.email}`);

    await page.getByLabel('E-mail address').fill(proctor.user.email);
    await page.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Proctor' }).click();
    await page.getByRole('button', { name: 'Share' }).click();
    await expectToast(page, `Shared with ${proctor.user.email}`);

    const people = page.getByRole('table', { name: 'People with access' });
    await expect(people.getByRole('row').filter({ hasText: grader.user.email })).toBeVisible();
    await expect(people.getByRole('combobox', { name: `Role of ${grader.user.email}` })).toHaveText('Grader');
    await expect(people.getByRole('combobox', { name: `Role of ${proctor.user.email}` })).toHaveText('Proctor');
    await expectAccessible(page, 'sharing page');
  });

  await test.step('the owner reads the audit log: who shared the exam with whom, in which role', async () => {
    await examNav(page).getByRole('link', { name: 'Audit log' }).click();
    const events = page.getByRole('table', { name: 'Audit events' });
    const shared = events.getByRole('row').filter({ hasText: 'Shared the exam' });
    await expect(shared).toHaveCount(2);
    await expect(shared.filter({ hasText: proctor.user.email })).toContainText('as Proctor');
    await expect(shared.filter({ hasText: grader.user.email })).toContainText(owner.user.email);
    await expect(events.getByRole('row').filter({ hasText: 'Switched the exam live or offline' })).toContainText(
      'now live',
    );
    await expect(events.getByRole('row').filter({ hasText: 'Created the exam' })).toHaveCount(1);
    await expectAccessible(page, 'audit log');
  });

  const graderContext = await browser.newContext({ baseURL: E2E.creatorOrigin });
  const graderPage = await graderContext.newPage();
  await test.step('the grader finds the exam in their list with their role, and no Edit or Live view', async () => {
    await signInCreator(graderPage, grader);
    await graderPage.goto('/creator/dashboard');
    const row = tableRow(graderPage, 'Published Exams', TITLE);
    await expect(row.getByText('Your role: Grader')).toBeAttached();
    await expect(row.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    // Results open on the submissions (a grader reads no insights); nothing else of the row is a grader's.
    await expect(row.getByRole('link', { name: 'Results' })).toHaveAttribute('href', /\/submissions$/);
    await expect(row.getByRole('button', { name: 'More actions' })).toHaveCount(0);
  });

  await test.step("the grader opens the exam's results: Grade, but no Edit, Sharing or Live", async () => {
    await graderPage.goto(submissionsUrl);
    const nav = examNav(graderPage);
    await expect(nav.getByRole('link', { name: 'Results' })).toBeVisible();
    for (const hidden of ['Edit', 'Sharing', 'Live', 'Audit log'])
      await expect(nav.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
    // The submissions come from results-service, which checks the grader's role on each call.
    await expect(graderPage.getByRole('heading', { name: /Candidate Submissions/ })).toBeVisible();
    const ada = graderPage.getByTestId('submission-row').filter({ hasText: ADA.name });
    await expect(ada.getByRole('link', { name: `Open Grader for ${ADA.name}` })).toBeVisible();
    // Without "may release results" on the share, no release.
    await expect(graderPage.getByRole('button', { name: 'Release graded results' })).toHaveCount(0);
    await expectAccessible(graderPage, 'submissions as a grader');
  });

  await test.step('the grader opens Ada’s submission and saves a mark', async () => {
    await graderPage
      .getByTestId('submission-row')
      .filter({ hasText: ADA.name })
      .getByRole('link', { name: `Open Grader for ${ADA.name}` })
      .click();
    await expect(graderPage.getByRole('heading', { name: `Grading: ${ADA.name}` })).toBeVisible();
    const q2 = graderPage.getByRole('group', { name: 'Question 2', exact: true });
    await q2.getByRole('button', { name: 'Full marks', exact: true }).click();
    await graderPage.getByRole('button', { name: 'Save Grading' }).click();
    await expect(graderPage).toHaveURL(new RegExp(`${submissionsUrl}$`));
    await expect(graderPage.getByTestId('submission-row').filter({ hasText: ADA.name })).toContainText('2 / 2 points');
  });

  await test.step('pages outside the grader’s role, opened by their URL, are refused in plain words', async () => {
    await expectRefused(
      graderPage,
      `/creator/edit-exam/${exam.id}?type=published`,
      'Grader',
      'does not let you edit it',
    );
    await expectAccessible(graderPage, 'a refused page');
    await expectRefused(
      graderPage,
      `/creator/exam-sharing/${exam.id}`,
      'Grader',
      'Only the owner can share this exam.',
    );
    await expectRefused(graderPage, `/creator/exam-live/${exam.id}`, 'Grader', 'does not include the live view');
  });
  await graderContext.close();

  const proctorContext = await browser.newContext({ baseURL: E2E.creatorOrigin });
  const proctorPage = await proctorContext.newPage();
  await test.step('the proctor opens the live view: the live table, but no Edit or Results', async () => {
    await signInCreator(proctorPage, proctor);
    await proctorPage.goto('/creator/dashboard');
    const row = tableRow(proctorPage, 'Published Exams', TITLE);
    await expect(row.getByText('Your role: Proctor')).toBeAttached();
    await expect(row.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await expect(row.getByRole('link', { name: 'Results' })).toHaveCount(0);
    await row.getByRole('button', { name: 'More actions' }).click();
    await proctorPage.getByRole('menuitem', { name: 'Live view' }).click();
    await expect(proctorPage).toHaveURL(new RegExp(`/creator/exam-live/${exam.id}$`));
    const nav = examNav(proctorPage);
    await expect(nav.getByRole('link', { name: 'Live' })).toBeVisible();
    for (const hidden of ['Edit', 'Results', 'Insights', 'Sharing'])
      await expect(nav.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
    // The live table comes from results-service, which checks the proctor's role on each call.
    await expect(proctorPage.getByRole('heading', { name: `Live: ${TITLE}` })).toBeVisible();
    await expect(proctorPage.getByRole('row').filter({ hasText: BOB.studentId })).toContainText('In progress');
    await expectAccessible(proctorPage, 'live view as a proctor');
  });

  await test.step('pages outside the proctor’s role, opened by their URL, are refused in plain words', async () => {
    await expectRefused(proctorPage, submissionsUrl, 'Proctor', "does not let you read candidates' answers");
    await expectRefused(
      proctorPage,
      `/creator/edit-exam/${exam.id}?type=published`,
      'Proctor',
      'does not let you edit it',
    );
  });
  await proctorContext.close();
});
