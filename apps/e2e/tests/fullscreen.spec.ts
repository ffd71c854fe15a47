import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getResult, listResults, publishExam, question, registerCreator } from './support/api.ts';
import { enterExam, submitExam } from './support/taker.ts';

const PROMPT = 'Full screen required';
const RETURN = 'Return to full screen';

const isFullscreen = (page: Page) => page.evaluate(() => document.fullscreenElement !== null);

/**
 * Gets the page into full screen the way a candidate would: the page's own request usually rides on the
 * Start click; when the browser refused it, the prompt's button (a click) does it.
 */
async function intoFullscreen(page: Page): Promise<void> {
  const prompt = page.getByRole('dialog', { name: PROMPT });
  await expect.poll(async () => (await isFullscreen(page)) || (await prompt.isVisible())).toBe(true);
  if (await prompt.isVisible()) await prompt.getByRole('button', { name: RETURN }).click();
  await expect.poll(() => isFullscreen(page)).toBe(true);
  await expect(prompt).toBeHidden();
}

test('leaving full screen counts a warning, is recorded and blocks the exam until the button re-enters', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Full Screen Journey',
    fullScreenEnabled: true,
    questions: [question.shortAnswer('Say anything', [])],
  });
  await enterExam(page, exam.id, { name: 'Grace Hopper', studentId: 'FS-1' });
  await intoFullscreen(page);
  const warnings = page.getByTestId('warnings-count');
  const prompt = page.getByRole('dialog', { name: PROMPT });
  await expect(warnings).toHaveText('0');

  for (const expected of ['1', '2']) {
    await page.evaluate(() => document.exitFullscreen());
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText('You left full screen. This has been recorded as a warning.');
    await expect(warnings).toHaveText(expected);
    if (expected === '1') await expectAccessible(page, 'full screen prompt');
    await prompt.getByRole('button', { name: RETURN }).click();
    await expect.poll(() => isFullscreen(page)).toBe(true);
    await expect(prompt).toBeHidden();
    await expect(warnings).toHaveText(expected);
  }

  await page.getByLabel('Answer for Q1').fill('done');
  await submitExam(page);
  await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  const [summary] = await listResults(request, creator.token);
  const events = (await getResult(request, creator.token, summary?.id ?? '')).events.map((e) => e.type);
  // Two exits by the candidate; the exit of the submit itself is not counted.
  expect(events.filter((type) => type === 'fullscreen-exit')).toHaveLength(2);
  expect(events).toContain('fullscreen-enter');
});
