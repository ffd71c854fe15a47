import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { createExam, getExam, listExams, PASSWORD, uniqueEmail } from './support/api.ts';
import { E2E } from './support/env.ts';
import { creatorTokenOf, expectToast, tableRow } from './support/ui.ts';

/** Issue 2: a new creator signs up, builds, edits, publishes, switches live, shares and deletes exams. */
test('a new creator builds, publishes, switches live and shares an exam, and deletes a draft', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E.creatorOrigin });
  const email = uniqueEmail('author');

  await test.step('creates an account from the landing page', async () => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Create Assessment' })).toBeVisible();
    await expectAccessible(page, 'landing page');
    await page.getByRole('button', { name: 'Create Assessment' }).click();
    await expect(page).toHaveURL(/\/creator\/auth$/);
    await expectAccessible(page, 'sign-in page');
    await page.getByRole('button', { name: "Don't have an account? Create One" }).click();
    await expectAccessible(page, 'sign-up form');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('button', { name: 'Processing...' })).toBeDisabled();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
    await expect(page.getByText('No published exams yet')).toBeVisible();
    await expect(page.getByText('No draft exams yet')).toBeVisible();
    await expectAccessible(page, 'empty dashboard');
  });

  await test.step('builds an exam with two MCQs, a short answer and a file upload and saves it as a draft', async () => {
    await page.getByRole('link', { name: 'Create New Exam' }).click();
    await expect(page.getByRole('heading', { name: 'Create New Exam' })).toBeVisible();
    await page.getByLabel('Exam Title').fill('Journey Draft');
    await page.getByRole('switch', { name: 'Enable Timer' }).click();
    await page.getByLabel('Duration (minutes)').fill('45');
    await expect(page.getByRole('switch', { name: 'Fullscreen Mode' })).not.toBeChecked();

    await page.getByRole('button', { name: 'Add MCQ' }).click();
    await page.getByRole('button', { name: 'Add MCQ' }).click();
    await page.getByRole('button', { name: 'Add Short Answer' }).click();
    await page.getByRole('button', { name: 'Add File Upload' }).click();
    await expect(page.getByRole('region', { name: /^Question \d$/ })).toHaveCount(4);

    await page.getByLabel('Question 1 title', { exact: true }).fill('Capital of France');
    await page.getByLabel('Question 1 topic', { exact: true }).fill('Geography');
    for (const [i, option] of ['Berlin', 'Paris', 'Rome', 'Madrid'].entries())
      await page.getByLabel(`Question 1 option ${i + 1}`, { exact: true }).fill(option);
    await page.getByLabel('Option 2 of question 1 is correct').check();

    await page.getByLabel('Question 2 title', { exact: true }).fill('Two plus two');
    await page.getByLabel('Question 2 topic', { exact: true }).fill('Arithmetic');
    for (const [i, option] of ['3', '4', '5', '22'].entries())
      await page.getByLabel(`Question 2 option ${i + 1}`, { exact: true }).fill(option);
    await page.getByLabel('Option 2 of question 2 is correct').check();

    await page.getByLabel('Question 3 title', { exact: true }).fill('Largest planet');
    await page.getByLabel('Question 3 content', { exact: true }).fill('Name the largest planet of the solar system.');
    await page.getByRole('button', { name: 'Question 3 add accepted answer' }).click();
    await page.getByLabel('Question 3 accepted answer 1', { exact: true }).fill('Jupiter');

    await page.getByLabel('Question 4 title', { exact: true }).fill('Your CV');
    await expectAccessible(page, 'exam editor with four questions');

    await page.getByRole('button', { name: 'Save as Draft' }).click();
    await expectToast(page, 'Exam saved as draft');
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await expect(tableRow(page, 'Draft Exams', 'Journey Draft')).toContainText('4');
  });

  const token = await creatorTokenOf(page);
  const [draft] = await listExams(request, token);
  expect(draft).toBeDefined();
  const examId = draft?.id ?? '';
  await test.step('the draft holds what was typed, answer keys included', async () => {
    const saved = await getExam(request, token, examId);
    expect(saved).toMatchObject({
      title: 'Journey Draft',
      isDraft: true,
      isLive: false,
      timerEnabled: true,
      timerMinutes: 45,
      fullScreenEnabled: false,
    });
    expect(saved.questions.map((q) => [q.type, q.title])).toEqual([
      ['mcq', 'Capital of France'],
      ['mcq', 'Two plus two'],
      ['short-answer', 'Largest planet'],
      ['file-upload', 'Your CV'],
    ]);
    expect(saved.questions[0]).toMatchObject({
      options: ['Berlin', 'Paris', 'Rome', 'Madrid'],
      correctAnswer: 'Paris',
      topic: 'Geography',
    });
    expect(saved.questions[1]).toMatchObject({ correctAnswer: '4' });
    expect(saved.questions[2]).toMatchObject({ acceptedAnswers: ['Jupiter'] });
  });

  await test.step('edits the draft and publishes it', async () => {
    await tableRow(page, 'Draft Exams', 'Journey Draft').getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Draft Exam' })).toBeVisible();
    await expect(page.getByLabel('Exam Title')).toHaveValue('Journey Draft');
    await expect(page.getByLabel('Option 2 of question 1 is correct')).toBeChecked();
    await expect(page.getByLabel('Question 3 accepted answer 1', { exact: true })).toHaveValue('Jupiter');
    await page.getByLabel('Exam Title').fill('Journey Exam');
    await page.getByRole('button', { name: 'Publish Exam' }).click();
    await expect(page.getByRole('heading', { name: 'Exam Published!' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/creator/exam-published/${examId}$`));
    await expect(page.getByLabel('Exam URL')).toHaveValue(`${E2E.takerOrigin}/exam/${examId}`);
    await expectAccessible(page, 'exam published page');
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  });

  const liveSwitch = tableRow(page, 'Published Exams', 'Journey Exam').getByRole('switch');
  await test.step('switches it live from the dashboard', async () => {
    await expect(page.getByText('No draft exams yet')).toBeVisible();
    // A draft published from its editor goes live at once (spec section 4); take it offline and back.
    await expect(liveSwitch).toBeChecked();
    await expectAccessible(page, 'dashboard with a published exam');
    await liveSwitch.click();
    // Going offline asks first, with the live count of candidates sitting it (none yet).
    const confirm = page.getByRole('alertdialog', { name: 'Take this exam offline?' });
    await expect(confirm).toContainText('Nobody is sitting it right now.');
    const takeOffline = confirm.getByRole('button', { name: 'Take offline' });
    // Enabled once the count is in (it is held while counting), its colour transition over.
    await expect(takeOffline).toBeEnabled();
    await takeOffline.evaluate((button) => Promise.all(button.getAnimations().map((a) => a.finished)));
    await expectAccessible(page, 'take offline confirmation');
    await takeOffline.click();
    await expectToast(page, 'Exam is now offline');
    await expect(liveSwitch).not.toBeChecked();
    await expect.poll(async () => (await getExam(request, token, examId)).isLive).toBe(false);
    await liveSwitch.click();
    await expectToast(page, 'Exam is now live');
    await expect(liveSwitch).toBeChecked();
    await expect.poll(async () => (await getExam(request, token, examId)).isLive).toBe(true);
  });

  await test.step('copies the candidate URL', async () => {
    await tableRow(page, 'Published Exams', 'Journey Exam').getByRole('button', { name: 'More actions' }).click();
    await expectAccessible(page, 'dashboard row actions menu');
    await page.getByRole('menuitem', { name: 'Copy exam URL' }).click();
    await expectToast(page, 'Exam URL copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E.takerOrigin}/exam/${examId}`);
  });

  await test.step('deletes a second exam after confirming', async () => {
    await createExam(request, token, { title: 'Scratch Draft', questions: [] });
    await page.reload();
    const row = tableRow(page, 'Draft Exams', 'Scratch Draft');
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete exam?' });
    await expect(dialog).toContainText(
      'Are you sure you want to delete the draft "Scratch Draft"? This action cannot be undone.',
    );
    await expectAccessible(page, 'delete confirmation dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Draft exam deleted successfully');
    await expect(dialog).toBeHidden();
    await expect(page.getByText('No draft exams yet')).toBeVisible();
  });

  await test.step('the data survives a reload', async () => {
    await page.reload();
    await expect(tableRow(page, 'Published Exams', 'Journey Exam').getByRole('switch')).toBeChecked();
    await expect(page.getByText('No draft exams yet')).toBeVisible();
    const exams = await listExams(request, token);
    expect(exams.map((e) => ({ title: e.title, isDraft: e.isDraft, isLive: e.isLive }))).toEqual([
      { title: 'Journey Exam', isDraft: false, isLive: true },
    ]);
  });
});
