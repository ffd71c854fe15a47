import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import type { Locator, Page } from '@playwright/test';
import {
  createExam,
  getExam,
  listExams,
  PASSWORD,
  publishExam,
  question,
  registerCreator,
  uniqueEmail,
} from './support/api.ts';
import { E2E } from './support/env.ts';
import { creatorTokenOf, expectToast, signInCreator, tableRow } from './support/ui.ts';

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
    await tableRow(page, 'Published Exams', 'Journey Exam').getByRole('button', { name: 'Copy link' }).click();
    await expectToast(page, 'Exam URL copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E.takerOrigin}/exam/${examId}`);
  });

  await test.step('deletes a second exam after confirming', async () => {
    await createExam(request, token, { title: 'Scratch Draft', questions: [] });
    await page.reload();
    const moreActions = tableRow(page, 'Draft Exams', 'Scratch Draft').getByRole('button', { name: 'More actions' });
    await moreActions.click();
    await expectAccessible(page, 'dashboard row actions menu');
    await page.getByRole('menuitem', { name: 'Delete' }).click();
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

/** The exam tables' row actions in one language: the tables' names and the labels a row shows outside its menu. */
const ROW_ACTIONS = {
  en: {
    tables: ['Published Exams', 'Draft Exams'],
    published: ['Edit', 'Results', 'Copy link', 'More actions'],
    draft: ['Edit', 'Preview', 'More actions'],
  },
  es: {
    tables: ['Exámenes publicados', 'Borradores'],
    published: ['Editar', 'Resultados', 'Copiar enlace', 'Más acciones'],
    draft: ['Editar', 'Vista previa', 'Más acciones'],
  },
} as const;

/** Shown, labelled with visible text, and inside the window's width (nothing cut off or behind a sideways scroll). */
async function expectLabelledAndOnScreen(page: Page, control: Locator, label: string) {
  await expect(control).toBeVisible();
  await expect(control).toHaveText(label);
  const box = await control.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, label).not.toBeNull();
  expect(box!.x, `${label} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${label} ends on screen`).toBeLessThanOrEqual(width);
}

async function expectRowActionsFit(page: Page, language: keyof typeof ROW_ACTIONS, where: string) {
  const { tables, published, draft } = ROW_ACTIONS[language];
  for (const name of tables) {
    const frame = page.getByRole('table', { name }).locator('xpath=..');
    await expect
      .poll(() => frame.evaluate((el) => el.scrollWidth - el.clientWidth), { message: `${name} ${where}` })
      .toBeLessThanOrEqual(0);
  }
  for (const name of tables) {
    // The table's card ends inside the window (the app's header is not part of this check).
    const box = await page.getByRole('table', { name }).boundingBox();
    expect(box!.x + box!.width, `${name} ${where}`).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
  }
  const rows = [
    {
      row: page.getByRole('table', { name: tables[0] }).getByRole('row').filter({ hasText: 'Statistics' }),
      labels: published,
    },
    {
      row: page.getByRole('table', { name: tables[1] }).getByRole('row').filter({ hasText: 'Regression' }),
      labels: draft,
    },
  ];
  for (const { row, labels } of rows)
    for (const label of labels) {
      const control = row
        .getByRole('link', { name: label, exact: true })
        .or(row.getByRole('button', { name: label, exact: true }));
      await expectLabelledAndOnScreen(page, control, label);
    }
}

/** Every row action of the exam tables shows its name, and the rows fit a laptop, a small laptop and a phone. */
test('the exam tables show labelled row actions that fit at 1366 and 1024 px and on a 390 px phone', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'rows');
  await publishExam(
    request,
    creator.token,
    {
      title: 'Introduction to Statistics: Midterm Examination, Autumn Term',
      questions: [question.shortAnswer('Mean of 2 and 4', ['3'])],
    },
    { live: true },
  );
  await createExam(request, creator.token, { title: 'Regression quiz, second attempt', questions: [] });
  await signInCreator(page, creator);

  for (const width of [1366, 1024]) {
    await test.step(`fit without scrolling sideways at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${E2E.creatorOrigin}/creator/dashboard`);
      await expectRowActionsFit(page, 'en', `at ${width}px`);
    });
  }

  await test.step('in Spanish, whose labels are longer, at 1024 px', async () => {
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await expect(page.getByRole('table', { name: 'Exámenes publicados' })).toBeVisible();
    await expectRowActionsFit(page, 'es', 'in Spanish at 1024px');
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await expect(page.getByRole('table', { name: 'Published Exams' })).toBeVisible();
  });

  await test.step('become cards on a 390 px phone, every action labelled and the menu on screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expectRowActionsFit(page, 'en', 'at 390px');
    // A card names each value, since the header row is not shown on a phone.
    const published = tableRow(page, 'Published Exams', 'Statistics');
    await expect(page.getByRole('table', { name: 'Published Exams' }).getByRole('columnheader').first()).toBeHidden();
    const submissions = published.locator('td[data-label="Submissions"]');
    await expect(submissions).toBeVisible();
    expect(await submissions.evaluate((cell) => getComputedStyle(cell, '::before').content)).toBe('"Submissions"');
    await published.getByRole('button', { name: 'More actions' }).click();
    const menu = page.getByRole('menu');
    await expectLabelledAndOnScreen(page, menu.getByRole('menuitem', { name: 'Delete' }), 'Delete');
    await expectAccessible(page, 'dashboard on a phone with a row menu open');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(published.getByRole('button', { name: 'More actions' })).toBeFocused();
  });
});
