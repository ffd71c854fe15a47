import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getAttempt, publishExam, question, registerCreator } from './support/api.ts';
import { enterExam, storedAttempt } from './support/taker.ts';

test('Submit asks first, lists the unanswered questions with links, and only "Submit exam" submits', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Submit Journey',
    questions: [
      question.mcq('Pick a colour', ['Red', 'Green'], 'Green'),
      question.shortAnswer('Capital of France', ['Paris']),
      question.shortAnswer('Largest planet', ['Jupiter']),
      question.shortAnswer('Smallest prime', ['2']),
    ],
  });
  await enterExam(page, exam.id, { name: 'Ada Lovelace', studentId: 'SUB-1' });
  const attempt = await storedAttempt(page, exam.id);
  await page.getByLabel('Answer for Q2').fill('Paris');
  await expect(page.getByTestId('answered-count')).toHaveText('Answered: 1/4');

  const submitButton = page.getByRole('button', { name: 'Submit', exact: true });
  const dialog = page.getByRole('alertdialog', { name: 'Submit exam?' });

  await test.step('the dialog says 1 of 4 and links the three unanswered questions; Escape goes back', async () => {
    await submitButton.click();
    await expect(dialog).toContainText('You have answered 1 of 4 questions.');
    const links = dialog.getByRole('navigation', { name: 'Unanswered questions' }).getByRole('link');
    await expect(links).toHaveText(['Q1: Pick a colour', 'Q3: Largest planet', 'Q4: Smallest prime']);
    await expectAccessible(page, 'submit dialog listing unanswered questions');
    // Focus stays inside the dialog.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      await expect(dialog.locator(':focus')).toHaveCount(1);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect((await getAttempt(request, attempt.token, attempt.attemptId)).submittedAt).toBeNull();
  });

  await test.step('a link closes the dialog and puts the candidate on that question', async () => {
    await submitButton.click();
    await dialog.getByRole('link', { name: 'Q3: Largest planet' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel('Answer for Q3')).toBeFocused();
    await page.keyboard.type('Jupiter');
    await expect(page.getByTestId('answered-count')).toHaveText('Answered: 2/4');
  });

  await test.step('"Keep working" cancels; "Submit exam" submits', async () => {
    await submitButton.click();
    await dialog.getByRole('button', { name: 'Keep working' }).click();
    await expect(dialog).toBeHidden();
    expect((await getAttempt(request, attempt.token, attempt.attemptId)).submittedAt).toBeNull();

    await submitButton.click();
    await expect(dialog).toContainText('You have answered 2 of 4 questions.');
    await dialog.getByRole('button', { name: 'Submit exam' }).click();
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await expect(page.getByTestId('answered-summary')).toHaveText('Questions Answered: 2 of 4');
    expect((await getAttempt(request, attempt.token, attempt.attemptId)).submittedAt).not.toBeNull();
  });
});
