import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getResult, listResults, publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { enterExam, examUrl, submitExam } from './support/taker.ts';
import { expectClearOf, expectToast } from './support/ui.ts';

const PASTE_BLOCKED = 'Paste blocked. Please copy from within the exam interface.';
const OFFLINE_EXAM = 'This exam is currently offline. Please contact your test provider.';

/** Submits from the header and waits for the completion page, so every queued event reaches the server. */
async function submit(page: Page): Promise<void> {
  await submitExam(page);
  await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
}

/** The events the server recorded for the creator's only result. */
async function recordedEvents(request: Parameters<typeof listResults>[0], token: string) {
  const [summary] = await listResults(request, token);
  expect(summary, 'one submitted result').toBeDefined();
  return (await getResult(request, token, summary?.id ?? '')).events;
}

test('refuses a published exam that is not live with the offline message', async ({ page, request }) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(
    request,
    creator.token,
    { title: 'Not Yet Live', questions: [question.shortAnswer('Anything', [])] },
    { live: false },
  );

  await page.goto(`${E2E.takerOrigin}/taker/start`);
  await page.getByLabel('Exam URL').fill(examUrl(exam.id));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(OFFLINE_EXAM)).toBeVisible();
  await expect(page).toHaveURL(/\/taker\/start$/);
  await expectAccessible(page, 'start page refusing an offline exam');

  // Opening the link itself does not get a candidate in either.
  await page.goto(examUrl(exam.id));
  await expectToast(page, 'This exam is currently offline');
  await expect(page).toHaveURL(/\/taker\/start$/);
});

test('blocks a paste of outside text and allows text copied inside the exam', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E.takerOrigin });
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Paste Guard',
    questions: [question.shortAnswer('Explain recursion', []), question.shortAnswer('Explain it again', [])],
  });
  await enterExam(page, exam.id, { name: 'Grace Hopper', studentId: 'P-1906' });
  const first = page.getByLabel('Answer for Q1');
  const second = page.getByLabel('Answer for Q2');

  await test.step('a paste of text from outside the exam is blocked with a notice', async () => {
    // Put text on the system clipboard without any copy event inside the page, as another app would.
    await page.evaluate(() => navigator.clipboard.writeText('text from a website'));
    await first.click();
    await page.keyboard.press('ControlOrMeta+V');
    const notice = page.getByRole('status').filter({ hasText: PASTE_BLOCKED });
    await expect(notice).toBeVisible();
    // Never over the field the candidate is typing into (top centre, or bottom centre while the field is up there).
    await expect(first).toBeFocused();
    await expectClearOf(notice, first);
    await expectAccessible(page, 'exam room with the paste-blocked notice');
    await expect(first).toHaveValue('');
    await expect(page.getByTestId('question-status-0')).toHaveText('Pending');
    // The notice stays about three seconds.
    await expect(notice).toBeHidden({ timeout: 10_000 });
  });

  await test.step('text copied inside the exam can be pasted', async () => {
    await first.fill('A function that calls itself');
    await first.selectText();
    await page.keyboard.press('ControlOrMeta+C');
    await second.click();
    await page.keyboard.press('ControlOrMeta+V');
    await expect(second).toHaveValue('A function that calls itself');
    await expect(page.getByRole('status').filter({ hasText: PASTE_BLOCKED })).toHaveCount(0);
    await expect(page.getByTestId('answered-count')).toHaveText('Answered: 2/2');
  });

  await submit(page);
  const types = (await recordedEvents(request, creator.token)).map((e) => e.type);
  expect(types).toEqual(expect.arrayContaining(['paste-blocked', 'copy', 'paste-allowed']));
});

/**
 * Headless Chromium keeps every page visible and focused, so leaving the exam is simulated the way the
 * browser reports a tab switch: visibilityState turns 'hidden' and visibilitychange fires.
 */
async function switchTab(page: Page, away: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    if (hidden) Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    else delete (document as { visibilityState?: unknown }).visibilityState;
    document.dispatchEvent(new Event('visibilitychange'));
  }, away);
}

test('shows Attention Required and counts a warning each time the candidate leaves the exam', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Focus Watch',
    questions: [question.mcq('Pick one', ['Yes', 'No'], 'Yes')],
  });
  await enterExam(page, exam.id, { name: 'Alan Turing', studentId: 'F-1912' });
  const warnings = page.getByTestId('warnings-count');
  const dialog = page.getByRole('dialog', { name: 'Attention Required' });
  await expect(warnings).toHaveText('0');
  await expect(dialog).toBeHidden();

  for (const expected of ['1', '2']) {
    await switchTab(page, true);
    await expect(dialog).toBeVisible();
    await expect(warnings).toHaveText(expected);
    if (expected === '1') await expectAccessible(page, 'Attention Required dialog');
    await switchTab(page, false);
    await dialog.getByRole('button', { name: 'Resume Exam' }).click();
    await expect(dialog).toBeHidden();
    await expect(warnings).toHaveText(expected);
  }

  await page.getByRole('radio', { name: 'Yes' }).check();
  await submit(page);
  const events = await recordedEvents(request, creator.token);
  expect(events.filter((e) => e.type === 'focus-lost')).toHaveLength(2);
  expect(events.filter((e) => e.type === 'focus-gained')).toHaveLength(2);
});
