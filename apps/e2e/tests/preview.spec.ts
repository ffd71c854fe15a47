import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { PASSWORD, publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { tableRow } from './support/ui.ts';

const CANARY = 'PREVIEW-CANARY name the powerhouse of the cell';

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/creator/auth');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/creator\/dashboard$/);
}

test('the owner previews a live exam; a fresh browser with the preview address sees no question', async ({
  page,
  context,
  browser,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Preview Journey',
    questions: [question.shortAnswer(CANARY, ['Mitochondria'])],
  });
  const previewPath = `${E2E.takerOrigin}/exam/${exam.id}/preview`;

  await test.step('the owner opens the preview from the dashboard and sees the questions', async () => {
    await signIn(page, creator.user.email);
    const takerRequests: string[] = [];
    context.on('request', (r) => {
      if (r.url().startsWith(E2E.takerOrigin)) takerRequests.push(r.url());
    });
    const opened = context.waitForEvent('page');
    await tableRow(page, 'Published Exams', 'Preview Journey').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Preview' }).click();
    const preview = await opened;
    await expect(preview.getByRole('heading', { name: `Q1: ${CANARY}` })).toBeVisible();
    await expect(preview.getByText('Creator Preview')).toBeVisible();
    await expectAccessible(preview, 'creator preview of the exam room');
    // The token came in the fragment, which the page removed; no request ever carried it in a query.
    await expect(preview).toHaveURL(previewPath);
    expect(takerRequests.filter((url) => /[?&]token=/.test(url))).toEqual([]);
    // A preview saves nothing and has no opener to reach back into the creator app.
    expect(await preview.evaluate(() => window.opener)).toBeNull();
    await preview.close();
  });

  await test.step('a fresh browser without the token is refused, with or without ?creator=true', async () => {
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    for (const url of [previewPath, `${previewPath}?creator=true`]) {
      await strangerPage.goto(url);
      await expect(strangerPage.getByRole('heading', { name: 'Preview not available' })).toBeVisible();
      await expect(strangerPage.getByRole('alert')).toContainText('This preview link is not valid.');
      await expect(strangerPage.getByText(CANARY)).toHaveCount(0);
    }
    await expectAccessible(strangerPage, 'preview refused');

    // The old address only leads to the candidate's details form, never to the questions.
    await strangerPage.goto(`${E2E.takerOrigin}/exam/${exam.id}?creator=true`);
    await expect(strangerPage).toHaveURL(/\/taker\/credentials$/);
    await expect(strangerPage.getByText(CANARY)).toHaveCount(0);

    // And the server itself: no preview without a token, with the creator's own token, or with a forged one.
    const api = stranger.request;
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${creator.token}` },
      { authorization: 'Bearer not.a.token' },
    ];
    for (const headers of attempts) {
      const refused = await api.get(`${E2E.takerOrigin}/api/public/exams/${exam.id}/preview`, { headers });
      expect(refused.status()).toBe(401);
      expect(await refused.text()).not.toContain(CANARY);
    }
    const summary = await api.get(`${E2E.takerOrigin}/api/public/exams/${exam.id}?creator=true`);
    expect(summary.status()).toBe(200);
    expect(await summary.text()).not.toContain(CANARY);
    await stranger.close();
  });
});
