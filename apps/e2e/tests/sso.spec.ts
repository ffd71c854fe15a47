import { expectAccessible } from './support/a11y.ts';
import { PASSWORD } from './support/api.ts';
import { E2E } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import { startIdentityProvider, type IdentityProvider } from './support/identity-provider.ts';
import { expectToast, signInCreator } from './support/ui.ts';

let idp: IdentityProvider;
test.beforeAll(async () => {
  idp = await startIdentityProvider();
});
test.afterAll(async () => {
  await idp?.close();
});

test('an admin configures single sign-on for the organization, and a creator signs in through the identity provider', async ({
  page,
  request,
}) => {
  const domain = `uni-${Date.now().toString(36)}.e2e.test`;
  const adminEmail = `admin@${domain}`;
  const registered = await request.post(`${E2E.creatorOrigin}/api/auth/register`, {
    data: { email: adminEmail, password: PASSWORD },
  });
  expect(registered.status()).toBe(201);
  const admin = (await registered.json()) as { token: string; user: { id: string; email: string } };
  idp.accounts.set('ada', { email: `ada@${domain}`, email_verified: true });

  await test.step('the admin opens the organization settings and configures the provider', async () => {
    await signInCreator(page, admin);
    await page.goto(`${E2E.creatorOrigin}/creator/dashboard`);
    await page.getByRole('link', { name: 'Organization' }).click();
    await expect(page.getByRole('heading', { name: 'Organization', level: 1 })).toBeVisible();
    await expect(page.getByRole('cell', { name: adminEmail, exact: true })).toBeVisible();
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(page.getByText(`Discovery works: sign-in goes to ${idp.issuer}/auth.`)).toBeVisible();
    await page.getByLabel('Client ID').fill(idp.clientId);
    await page.getByLabel('E-mail domains').fill(domain);
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await expectToast(page, 'Single sign-on saved.');
    await expectAccessible(page, 'organization settings');
  });

  await test.step('turning password sign-in off is refused while the admin is not linked to the provider', async () => {
    await page.getByRole('switch', { name: 'Password sign-in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'would lock you out' })).toBeVisible();
    await expect(page.getByRole('switch', { name: 'Password sign-in' })).toBeChecked();
  });

  await test.step('the admin signs out', async () => {
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(`${E2E.creatorOrigin}/`);
  });

  await test.step('a colleague signs in through the provider and lands in the creator app, signed in', async () => {
    await page.goto(`${E2E.creatorOrigin}/creator/auth`);
    await page.getByRole('button', { name: 'Sign in with your organization (SSO)' }).click();
    await expectAccessible(page, 'sign in with your organization');
    await page.getByLabel('Work e-mail').fill(`ada@${domain}`);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    // The provider's own development login page, then its consent page.
    await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill('ada');
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page).toHaveURL(`${E2E.creatorOrigin}/creator/dashboard`);
    await expect(page.getByText(`Welcome, ada@${domain}`)).toBeVisible();
    const token = await page.evaluate(() => localStorage.getItem('authToken'));
    const exams = await request.get(`${E2E.creatorOrigin}/api/exams/auth_exams`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(exams.status()).toBe(200);
  });

  await test.step('the admin sees the colleague as a member who signs in only through the provider', async () => {
    // Signing out ended the admin's earlier session: they sign in again with their password (still allowed).
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${E2E.creatorOrigin}/creator/auth`);
    await page.getByLabel('Email Address').fill(adminEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(`${E2E.creatorOrigin}/creator/dashboard`);
    await page.getByRole('link', { name: 'Organization' }).click();
    const row = page.getByRole('row').filter({ hasText: `ada@${domain}` });
    await expect(row).toContainText('SSO only');
    await expect(row.getByRole('combobox')).toHaveText('Member');
  });
});
