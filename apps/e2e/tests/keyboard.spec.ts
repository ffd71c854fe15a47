import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { getAttempt, publishExam, question, registerCreator } from './support/api.ts';
import { examUrl, storedAttempt } from './support/taker.ts';

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, and fails if it is not reached within `max` presses:
 * the control is in the tab order, and is reached from where the focus was.
 */
async function tabTo(page: Page, target: Locator, { max = 40, backwards = false } = {}): Promise<void> {
  for (let presses = 0; presses < max; presses++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  await expect(target, `reached with ${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`).toBeFocused();
}

/** The focused control draws a visible indicator: an outline or a ring (box-shadow), per WCAG 2.4.7. */
async function expectVisibleFocus(target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const indicator = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return { outline, shadow: style.boxShadow !== 'none' };
  });
  expect(indicator.outline || indicator.shadow, 'a visible focus outline or ring').toBe(true);
}

/** WCAG 2.1.1: the candidate's whole way, from the link to the completion page, with the keyboard alone. */
test('a candidate sits and submits an exam with the keyboard alone, and focus is visible and returns after the dialog', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'keyboard');
  const exam = await publishExam(request, creator.token, {
    title: 'Keyboard Journey',
    timerEnabled: true,
    timerMinutes: 30,
    questions: [
      question.mcq('Capital of France', ['Berlin', 'Paris', 'Rome'], 'Paris'),
      question.shortAnswer('Largest planet', ['Jupiter']),
    ],
  });

  await test.step('opens the link and gives name and ID from the keyboard', async () => {
    await page.goto(examUrl(exam.id));
    await expect(page).toHaveURL(/\/taker\/credentials$/);
    const name = page.getByLabel('Full Name');
    await tabTo(page, name);
    await expectVisibleFocus(name);
    await page.keyboard.type('Ada Keyboard');
    // The ID comes next in the tab order.
    await page.keyboard.press('Tab');
    await expectVisibleFocus(page.getByLabel('Candidate ID'));
    await page.keyboard.type('K-1');
    // Enter in a field submits the form.
    await page.keyboard.press('Enter');
  });

  await test.step('reaches Start Exam on the briefing and starts with Enter', async () => {
    const start = page.getByRole('button', { name: 'Start Exam' });
    await expect(start).toBeEnabled();
    await tabTo(page, start);
    await expectVisibleFocus(start);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
    await expect(page.getByTestId('answered-count')).toHaveText('Answered: 0/2');
  });

  await test.step('answers the multiple choice with the arrow keys and the short answer by typing', async () => {
    const berlin = page.getByRole('radio', { name: 'Berlin' });
    await tabTo(page, berlin);
    await expectVisibleFocus(berlin);
    await page.keyboard.press('Space');
    await expect(berlin).toBeChecked();
    // Arrows move within the group and choose the next option.
    await page.keyboard.press('ArrowDown');
    const paris = page.getByRole('radio', { name: 'Paris' });
    await expect(paris).toBeFocused();
    await expect(paris).toBeChecked();

    const answer = page.getByLabel('Answer for Q2');
    await tabTo(page, answer);
    await expectVisibleFocus(answer);
    await page.keyboard.type('Jupiter');
    await expect(page.getByTestId('answered-count')).toHaveText('Answered: 2/2');
    const attempt = await storedAttempt(page, exam.id);
    await expect
      .poll(async () => (await getAttempt(request, attempt.token, attempt.attemptId)).answers)
      .toMatchObject({ '0': { answer: 'Paris' }, '1': { answer: 'Jupiter' } });
  });

  const submit = page.getByRole('button', { name: 'Submit', exact: true });
  const dialog = page.getByRole('alertdialog', { name: 'Submit exam?' });
  await test.step('goes back to Submit with Shift+Tab; Escape closes the dialog and focus returns to Submit', async () => {
    await tabTo(page, submit, { backwards: true });
    await expectVisibleFocus(submit);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    // The safe choice has the focus first.
    await expect(dialog.getByRole('button', { name: 'Keep working' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(submit).toBeFocused();
  });

  await test.step('submits through the confirmation with the keyboard', async () => {
    await page.keyboard.press('Space');
    await expect(dialog).toBeVisible();
    const confirm = dialog.getByRole('button', { name: 'Submit exam' });
    await tabTo(page, confirm, { max: 10 });
    await expectVisibleFocus(confirm);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await expect(page.getByTestId('answered-summary')).toHaveText('Questions Answered: 2 of 2');
  });
});
