import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getAttempt, listResults, publishExam, question, registerCreator } from './support/api.ts';
import { countdownSeconds, enterExam, storedAttempt } from './support/taker.ts';

test('submits by itself when a one-minute timer reaches zero', async ({ page, request }) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'One Minute',
    timerEnabled: true,
    timerMinutes: 1,
    questions: [
      question.mcq('Quick one', ['Left', 'Right'], 'Right'),
      question.shortAnswer('No time for this', ['never']),
    ],
  });
  // The page's clock runs normally until the test moves it; the deadline itself stays the server's.
  await page.clock.install();
  await enterExam(page, exam.id, { name: 'Katherine Johnson', studentId: 'T-1918' });

  const remaining = await countdownSeconds(page);
  expect(remaining).toBeGreaterThan(0);
  expect(remaining).toBeLessThanOrEqual(60);
  await expectAccessible(page, 'exam room in its last minute');
  await page.getByRole('radio', { name: 'Right' }).check();
  const attempt = await storedAttempt(page, exam.id);
  await expect
    .poll(async () => (await getAttempt(request, attempt.token, attempt.attemptId)).answers['0']?.answer)
    .toBe('Right');

  // Let the minute pass: the countdown reaches 0:00 and the page submits without a click.
  await page.clock.fastForward(remaining * 1000);
  await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  await expect(page.getByTestId('answered-summary')).toHaveText('Questions Answered: 1 of 2');

  expect((await getAttempt(request, attempt.token, attempt.attemptId)).submittedAt).not.toBeNull();
  const results = await listResults(request, creator.token);
  expect(results).toHaveLength(1);
  expect(results[0]).toMatchObject({
    examId: exam.id,
    answeredCount: 1,
    score: 1,
    maxScore: 2,
    percentage: 50,
    status: 'graded',
    pendingCount: 0,
    isGraded: true,
  });
});
