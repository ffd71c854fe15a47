import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { publishExam, question, registerCreator } from './support/api.ts';
import { enterExam } from './support/taker.ts';

async function choose(page: Page, item: string): Promise<void> {
  await page.getByRole('button', { name: 'Display preferences' }).click();
  await page.getByRole('menuitemradio', { name: item }).click();
  await expect(page.getByRole('menu')).toBeHidden();
}

const rootFontSize = (page: Page) =>
  page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
const canvasColour = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the candidate enlarges the text and switches to dark and high contrast themes, remembered across a reload, and every theme passes axe', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'prefs');
  const exam = await publishExam(request, creator.token, {
    title: 'Preferences Journey',
    timerEnabled: true,
    timerMinutes: 30,
    questions: [
      question.mcq('Capital of France', ['Berlin', 'Paris', 'Rome'], 'Paris', 'General', {
        content: 'Some `inline code` and a [link](https://example.org).',
      }),
      question.shortAnswer('Largest planet', ['Jupiter']),
      question.fileUpload('Upload your notes'),
      {
        ...question.coding('Print the answer', 'python'),
        content: 'Finish it:\n\n```python\nprint(42)  # the answer\n```',
      },
    ],
  });
  await enterExam(page, exam.id, { name: 'Ada Lovelace', studentId: 'PR-1' });
  const root = page.locator('html');
  const light = await canvasColour(page);

  await test.step('text size 130% scales the whole page from the root', async () => {
    expect(await rootFontSize(page)).toBe(16);
    await choose(page, 'Larger (130%)');
    await expect(root).toHaveAttribute('data-text-size', '130');
    expect(await rootFontSize(page)).toBeCloseTo(20.8, 1);
  });

  await test.step('the dark theme darkens the page and passes axe, its menu and its dialog too', async () => {
    await choose(page, 'Dark');
    await expect(root).toHaveAttribute('data-theme', 'dark');
    expect(await canvasColour(page)).not.toBe(light);
    await page.getByRole('radio', { name: 'Paris' }).check();
    await expectAccessible(page, 'exam room, dark theme, 130% text');
    await page.getByRole('button', { name: 'Display preferences' }).click();
    await expectAccessible(page, 'preferences menu, dark theme');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(page.getByRole('alertdialog', { name: 'Submit exam?' })).toBeVisible();
    await expectAccessible(page, 'submit dialog, dark theme');
    await page.keyboard.press('Escape');
  });

  await test.step('a reload keeps both choices', async () => {
    await page.reload();
    await expect(page.getByTestId('answered-count')).toBeVisible();
    await expect(root).toHaveAttribute('data-theme', 'dark');
    await expect(root).toHaveAttribute('data-text-size', '130');
    await page.getByRole('button', { name: 'Display preferences' }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByRole('menuitemradio', { name: 'Larger (130%)' })).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('Escape');
  });

  await test.step('high contrast passes axe, and the default theme and size come back', async () => {
    await choose(page, 'High contrast');
    await expect(root).toHaveAttribute('data-theme', 'contrast');
    expect(await canvasColour(page)).toBe('rgb(0, 0, 0)');
    await expectAccessible(page, 'exam room, high contrast theme');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expectAccessible(page, 'submit dialog, high contrast theme');
    await page.keyboard.press('Escape');

    await choose(page, 'Light');
    await choose(page, 'Normal (100%)');
    await expect(root).not.toHaveAttribute('data-theme');
    await expect(root).not.toHaveAttribute('data-text-size');
    expect(await canvasColour(page)).toBe(light);
  });

  await test.step('with reduced motion asked for, transitions and animations stop', async () => {
    const submit = page.getByRole('button', { name: 'Submit', exact: true });
    const duration = () => submit.evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration));
    expect(await duration()).toBeGreaterThan(0.1);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await duration()).toBeLessThan(0.001);
    await submit.click();
    const overlayAnimation = await page
      .locator('[role="alertdialog"]')
      .evaluate((el) => parseFloat(getComputedStyle(el).animationDuration));
    expect(overlayAnimation).toBeLessThan(0.001);
    await page.keyboard.press('Escape');
  });

  await test.step('at 200% zoom (1280×800 seen as 640×400) the exam room needs no sideways scrolling', async () => {
    await page.setViewportSize({ width: 640, height: 400 });
    await expect(page.getByRole('button', { name: 'Submit', exact: true })).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
      .toBeLessThanOrEqual(0);
    await expectAccessible(page, 'exam room at 200% zoom');
  });
});
