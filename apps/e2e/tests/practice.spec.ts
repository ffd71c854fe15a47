import type { InsightsReport } from '@exam/domain/insights';
import { expect, test } from './support/fixtures.ts';
import { listResults, publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { enterExam, storedAttempt, submitExam } from './support/taker.ts';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * docs/product.md#practice-and-review: a practice exam checks answers as the candidate goes with the creator's
 * feedback, may be sat again, and leaves no trace in insights; a real exam's review window shows the candidate their
 * answers, the keys and the feedback once the result is released.
 */
test('a practice exam checks answers with the creator’s feedback, can be sat again, and counts nowhere', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const creator = await registerCreator(request, 'practice');
  const exam = await publishExam(request, creator.token, {
    title: 'Noble gases practice',
    practice: true,
    attemptsAllowed: 1,
    questions: [
      question.mcq('Which is a noble gas?', ['Oxygen', 'Neon', 'Iron'], 'Neon', 'Chemistry', {
        feedback: {
          general: 'Noble gases sit in the last column.',
          correct: 'Well done.',
          partial: '',
          incorrect: 'Not this one.',
        },
        optionFeedback: ['Oxygen forms bonds readily.', 'Neon glows in signs.', 'Iron is a metal.'],
      }),
      question.shortAnswer('Lightest element', ['Hydrogen'], 'Chemistry', {
        feedback: { general: '', correct: 'Yes.', partial: '', incorrect: 'It has one proton.' },
      }),
    ],
  });

  await test.step('the candidate checks a wrong choice, then the right one, and reads the feedback', async () => {
    await enterExam(page, exam.id, { name: 'Ada Lovelace', studentId: 'P-001' });
    await expect(page.getByTestId('practice-banner')).toHaveText(
      'Practice: your answers are checked as you go and do not count',
    );
    const first = page.getByTestId('question-0');
    await first.getByRole('radio', { name: 'Oxygen' }).check();
    await first.getByRole('button', { name: 'Check answer' }).click();
    const outcome = page.getByTestId('practice-outcome-0');
    await expect(outcome).toContainText('Incorrect');
    await expect(outcome).toContainText('Noble gases sit in the last column.');
    await expect(outcome).toContainText('Not this one.');
    await expect(outcome).toContainText('Oxygen forms bonds readily.');

    await first.getByRole('radio', { name: 'Neon' }).check();
    await first.getByRole('button', { name: 'Check answer' }).click();
    await expect(outcome).toContainText('Correct');
    await expect(outcome).toContainText('Neon glows in signs.');

    await page.getByLabel('Answer for Q2').fill('Hydrogen');
    await page.getByTestId('question-1').getByRole('button', { name: 'Check answer' }).click();
    await expect(page.getByTestId('practice-outcome-1')).toContainText('Yes.');
  });

  const firstAttempt = (await storedAttempt(page, exam.id)).attemptId;
  await test.step('after submitting, Try again starts a second attempt although one is allowed', async () => {
    await submitExam(page, { answered: 2, total: 2 });
    await expect(page).toHaveURL(/\/taker\/results$/);
    await expect(page.getByText('This was a practice exam: it does not count.')).toBeVisible();
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
    await expect(page.getByTestId('practice-banner')).toBeVisible();
    await expect.poll(async () => (await storedAttempt(page, exam.id)).attemptId).not.toBe(firstAttempt);
  });

  await test.step('the creator lists the attempt as practice, and insights count no attempt', async () => {
    const results = (await listResults(request, creator.token)).filter((r) => r.examId === exam.id);
    expect(results).toHaveLength(1);
    expect(results[0]?.practice).toBe(true);
    const response = await request.get(`${E2E.creatorOrigin}/api/exams/${exam.id}/insights`, {
      headers: bearer(creator.token),
    });
    expect(response.ok()).toBe(true);
    const report = (await response.json()) as InsightsReport;
    expect(report.cohort).toMatchObject({ started: 0, submitted: 0 });
    expect(report.candidates).toEqual([]);
  });
});

test('a released result of a real exam opens its review with the answer, the key and the feedback', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const creator = await registerCreator(request, 'reviewer');
  const exam = await publishExam(request, creator.token, {
    title: 'Capitals quiz',
    releasePolicy: 'on-release',
    showAnswerKeys: true,
    review: { enabled: true, closesAt: null, showFeedback: true },
    questions: [
      question.shortAnswer('Capital of Australia', ['Canberra'], 'Geography', {
        feedback: {
          general: 'Capitals are not always the largest city.',
          correct: '',
          partial: '',
          incorrect: 'Think of a planned city.',
        },
      }),
    ],
  });
  await enterExam(page, exam.id, { name: 'Bob Babbage', studentId: 'R-001' });
  await page.getByLabel('Answer for Q1').fill('Sydney');
  const { attemptId } = await storedAttempt(page, exam.id);
  await submitExam(page, { answered: 1, total: 1 });
  await expect(page).toHaveURL(/\/taker\/results$/);

  const result = (await listResults(request, creator.token)).find((r) => r.examId === exam.id);
  expect(result).toBeDefined();
  const released = await request.post(`${E2E.creatorOrigin}/api/results/${result!.id}/release`, {
    headers: bearer(creator.token),
    data: { released: true },
  });
  expect(released.ok()).toBe(true);

  await page.goto(`${E2E.takerOrigin}/taker/results/${attemptId}`);
  await page.getByRole('link', { name: 'Review your answers' }).click();
  await expect(page).toHaveURL(new RegExp(`/taker/review/${attemptId}$`));
  await expect(page.getByRole('heading', { name: 'Review: Capitals quiz' })).toBeVisible();
  const item = page.getByRole('listitem').filter({ hasText: 'Capital of Australia' });
  await expect(item).toContainText('Your answer: Sydney');
  await expect(item).toContainText('Incorrect');
  await expect(item).toContainText('Correct answer: Canberra');
  await expect(item).toContainText('Capitals are not always the largest city.');
  await expect(item).toContainText('Think of a planned city.');
});
