import { expect, type Locator, type Page } from '@playwright/test';
import { E2E } from './env.ts';

/** The one visible sonner toast carrying this text (the apps show one toast at a time). */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: text });
}

export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await expect(toast(page, text)).toBeVisible();
}

/** The row of a titled table (the dashboard's 'Published Exams' and 'Draft Exams') holding this text. */
export function tableRow(page: Page, table: 'Published Exams' | 'Draft Exams', text: string): Locator {
  return page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });
}

/** The creator token the app keeps after signing in (localStorage 'authToken'). */
export async function creatorTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token, 'the creator app keeps its token after sign-in').toBeTruthy();
  return token ?? '';
}

/** Signs the creator in the way creator-web keeps a session (localStorage 'authToken' and 'user'). */
export async function signInCreator(page: Page, session: { token: string; user: unknown }): Promise<void> {
  await page.goto(E2E.creatorOrigin);
  await page.evaluate((s) => {
    localStorage.setItem('authToken', s.token);
    localStorage.setItem('user', JSON.stringify(s.user));
  }, session);
}

/** A notice (toast, paste notice) lies wholly clear of a field: their boxes on screen do not intersect. */
export async function expectClearOf(notice: Locator, field: Locator): Promise<void> {
  const [a, b] = await Promise.all([notice.boundingBox(), field.boundingBox()]);
  expect(a, 'the notice is on screen').not.toBeNull();
  expect(b, 'the field is on screen').not.toBeNull();
  if (!a || !b) return;
  const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
  expect(apart, `notice ${JSON.stringify(a)} covers field ${JSON.stringify(b)}`).toBe(true);
}
