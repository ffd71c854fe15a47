import type { PublicExam } from '@exam/domain/public-exam';
import type { Browser, Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { createExam, getAttempt, PASSWORD, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { enterExam, storedAttempt, submitExam } from './support/taker.ts';
import { expectToast } from './support/ui.ts';

const ADA = { name: 'Ada Lovelace', studentId: 'SH-001' };
const BOB = { name: 'Bob Babbage', studentId: 'SH-002' };

/** Six questions, 1 point each; every option text is unique across the exam, so a radio's name finds it. */
const QUESTIONS = [
  question.mcq('Powerhouse of the cell', ['Nucleus', 'Mitochondrion', 'Ribosome', 'Golgi body'], 'Mitochondrion'),
  question.shortAnswer('Largest organ of the body', ['skin']),
  question.mcq('Gas we breathe out', ['Oxygen', 'Carbon dioxide', 'Nitrogen', 'Helium'], 'Carbon dioxide'),
  question.shortAnswer('Organ that pumps blood', ['heart']),
  question.mcq('The red planet', ['Venus', 'Mars', 'Jupiter', 'Saturn'], 'Mars'),
  question.shortAnswer('Chemical name of H2O', ['water']),
];
const KEYS: Record<string, string> = {
  'Powerhouse of the cell': 'Mitochondrion',
  'Largest organ of the body': 'skin',
  'Gas we breathe out': 'Carbon dioxide',
  'Organ that pumps blood': 'heart',
  'The red planet': 'Mars',
  'Chemical name of H2O': 'water',
};
const WRONG: Record<string, string> = {
  'Powerhouse of the cell': 'Nucleus',
  'Gas we breathe out': 'Oxygen',
  'The red planet': 'Venus',
};

/** The candidate's exam as the server keeps it for their attempt (GET /api/attempts/{id}/exam). */
async function attemptExam(page: Page, examId: string): Promise<PublicExam> {
  const attempt = await storedAttempt(page, examId);
  const response = await page.request.get(`${E2E.takerOrigin}/api/attempts/${attempt.attemptId}/exam`, {
    headers: { authorization: `Bearer ${attempt.token}` },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as PublicExam;
}

const layout = (exam: PublicExam) => exam.questions.map((q) => `${q.title}: ${q.options.join(' / ')}`);

/** The question headings in the order the page shows them ("Q1: title"). */
const shownTitles = (page: Page) => page.locator('[id^="q-"][id$="-title"]').allTextContents();
const headings = (exam: PublicExam) => exam.questions.map((q, i) => `Q${i + 1}: ${q.title}`);

/** Answers every question on the page (in its order) and waits until the server holds all six answers. */
async function answerAll(page: Page, examId: string, exam: PublicExam, answerOf: (title: string) => string) {
  for (const [index, q] of exam.questions.entries()) {
    const answer = answerOf(q.title);
    if (q.type === 'mcq') await page.getByRole('radio', { name: answer, exact: true }).check();
    else await page.getByLabel(`Answer for Q${index + 1}`).fill(answer);
  }
  const attempt = await storedAttempt(page, examId);
  await expect
    .poll(async () => Object.keys((await getAttempt(page.request, attempt.token, attempt.attemptId)).answers).length)
    .toBe(6);
}

async function candidatePage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test('two candidates of a shuffled exam see their own question and option order, kept on reload, and both are scored right', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const creator = await registerCreator(request, 'shuffler');
  const draft = await createExam(request, creator.token, { title: 'Shuffled Biology', questions: QUESTIONS });

  await test.step('the creator turns on both shuffles in the editor and publishes', async () => {
    await page.goto('/creator/auth');
    await page.getByLabel('Email Address').fill(creator.user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await page.goto(`/creator/edit-exam/${draft.id}?type=draft`);
    await page.getByRole('switch', { name: 'Shuffle question order' }).click();
    await page.getByRole('switch', { name: 'Shuffle answer options' }).click();
    await expectAccessible(page, 'exam editor of a draft with six questions');
    await page.getByRole('button', { name: 'Publish Exam' }).click();
    await expectToast(page, 'Exam published successfully');
  });

  const ada = await candidatePage(browser);
  const bob = await candidatePage(browser);
  let adaExam: PublicExam;
  let bobExam: PublicExam;
  await test.step('Ada and Bob start in two browsers and get different orders', async () => {
    await enterExam(ada.page, draft.id, ADA);
    await enterExam(bob.page, draft.id, BOB);
    adaExam = await attemptExam(ada.page, draft.id);
    bobExam = await attemptExam(bob.page, draft.id);
    // 720 question orders × 24³ option orders: equal layouts would be a one-in-ten-million coincidence.
    expect(layout(adaExam)).not.toEqual(layout(bobExam));
    expect([...adaExam.questions.map((q) => q.title)].sort()).toEqual(Object.keys(KEYS).sort());
    // Each page shows its candidate's order.
    await expect.poll(() => shownTitles(ada.page)).toEqual(headings(adaExam));
    await expect.poll(() => shownTitles(bob.page)).toEqual(headings(bobExam));
  });

  await test.step('a reload shows Ada the same order', async () => {
    await ada.page.reload();
    await expect(ada.page.getByTestId('answered-count')).toBeVisible();
    await expect.poll(() => shownTitles(ada.page)).toEqual(headings(adaExam));
    expect(layout(await attemptExam(ada.page, draft.id))).toEqual(layout(adaExam));
  });

  await test.step('Ada answers everything right, Bob only the short answers, and both submit', async () => {
    await answerAll(ada.page, draft.id, adaExam, (title) => KEYS[title]!);
    await answerAll(bob.page, draft.id, bobExam, (title) => WRONG[title] ?? KEYS[title]!);
    await submitExam(ada.page, { answered: 6, total: 6 });
    await expect(ada.page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await submitExam(bob.page, { answered: 6, total: 6 });
    await expect(bob.page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step("the creator's results page scores both right", async () => {
    await page.goto(`/creator/exam-insights/${draft.id}/submissions`);
    await expect(page.getByTestId('submission-row')).toHaveCount(2);
    await expect(page.getByTestId('submission-row').filter({ hasText: ADA.name })).toContainText('6 / 6 points');
    await expect(page.getByTestId('submission-row').filter({ hasText: BOB.name })).toContainText('3 / 6 points');
    await expectAccessible(page, 'submissions page');
  });

  await test.step("each candidate's grader lists the questions in the exam's order and numbering, not theirs", async () => {
    const examHeadings = QUESTIONS.map((q, i) => `Q${i + 1}: ${q.title}`);
    for (const [candidate, exam] of [
      [ADA, adaExam],
      [BOB, bobExam],
    ] as const) {
      await page.goto(`/creator/exam-insights/${draft.id}/submissions`);
      await page
        .getByTestId('submission-row')
        .filter({ hasText: candidate.name })
        .getByRole('link', { name: `Open Grader for ${candidate.name}` })
        .click();
      await expect(page.getByRole('heading', { name: `Grading: ${candidate.name}` })).toBeVisible();
      const cards = page.getByRole('region', { name: 'Questions & Answers' }).getByRole('heading', { level: 3 });
      await expect(cards).toHaveText(examHeadings);
      // The candidate's own place is said beside a question they saw elsewhere, as information only.
      const seenAt = exam.questions.findIndex((q) => q.title === QUESTIONS[0]!.title);
      const first = page.getByRole('group', { name: 'Question 1', exact: true });
      if (seenAt === 0) await expect(first).not.toContainText('seen by the candidate');
      else await expect(first).toContainText(`seen by the candidate as question ${seenAt + 1}`);
    }
    await expectAccessible(page, 'grader of a shuffled attempt');
  });

  await ada.context.close();
  await bob.context.close();
});

test('a question saved to the bank is added to another exam as a copy that later bank edits leave alone', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'banker');
  const source = await createExam(request, creator.token, {
    title: 'Bank source',
    questions: [question.shortAnswer('Organ that pumps blood', ['heart'], 'Organs')],
  });
  const target = await createExam(request, creator.token, { title: 'Bank target', questions: [] });

  await page.goto('/creator/auth');
  await page.getByLabel('Email Address').fill(creator.user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/creator\/dashboard$/);

  await test.step('Save to bank in the editor', async () => {
    await page.goto(`/creator/edit-exam/${source.id}?type=draft`);
    await page.getByRole('button', { name: 'Save to bank: question 1' }).click();
    await expectToast(page, 'Question 1 saved to your question bank');
  });

  await test.step('Add from bank in another exam, then save it', async () => {
    await page.goto(`/creator/edit-exam/${target.id}?type=draft`);
    await page.getByRole('button', { name: 'Add from bank' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add from your question bank' });
    await dialog.getByRole('checkbox', { name: /Organ that pumps blood/ }).check();
    await expectAccessible(page, 'add from bank dialog');
    await dialog.getByRole('button', { name: 'Add 1 question' }).click();
    await expect(page.getByLabel('Question 1 title')).toHaveValue('Organ that pumps blood');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Draft saved successfully');
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
  });

  await test.step('editing the bank question leaves the exam’s copy alone', async () => {
    await page.goto('/creator/question-bank');
    await page.getByRole('button', { name: 'Edit Organ that pumps blood' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit bank question' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'question bank with the edit dialog');
    await dialog.getByLabel('Question', { exact: true }).fill('Which organ pumps blood?');
    await dialog.getByRole('button', { name: 'Save question' }).click();
    await expect(page.getByTestId('bank-row').first()).toContainText('Which organ pumps blood?');
    await page.goto(`/creator/edit-exam/${target.id}?type=draft`);
    await expect(page.getByLabel('Question 1 title')).toHaveValue('Organ that pumps blood');
  });
});
