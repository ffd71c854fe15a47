import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { PASSWORD, uniqueEmail } from './support/api.ts';
import { E2E, E2E_ADMIN_EMAIL } from './support/env.ts';
import { mailTo } from './support/mailbox.ts';
import { creatorTokenOf, signInCreator } from './support/ui.ts';

test('a creator’s sign-out ends the token on the server, and a forgotten password is reset from the mailed link', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('account');
  const newPassword = 'fresh-orchard-lamp-58';

  await test.step('signs up, after a common password is refused with its reason', async () => {
    await page.goto('/creator/auth');
    await page.getByRole('button', { name: "Don't have an account? Create One" }).click();
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText(/This password is too common/)).toBeVisible();
    await expectAccessible(page, 'sign-up form with a refused password');
    // Not on the list, but guessable: the strength estimator's reason is shown.
    await page.getByLabel('Password').fill('P@ssw0rd123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText(/This password is too easy to guess\. .*commonly used password/)).toBeVisible();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
  });

  await test.step('signs out; the old token is refused by exam-service and results-service alike', async () => {
    const oldToken = await creatorTokenOf(page);
    const headers = { authorization: `Bearer ${oldToken}` };
    expect((await request.get(`${E2E.creatorOrigin}/api/results`, { headers })).status()).toBe(200);

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(`${E2E.creatorOrigin}/`);
    expect((await request.get(`${E2E.creatorOrigin}/api/exams/auth_exams`, { headers })).status()).toBe(401);
    expect((await request.get(`${E2E.creatorOrigin}/api/results`, { headers })).status()).toBe(401);

    // Even a browser that kept a copy of the token is sent back to sign-in.
    await page.evaluate((token) => localStorage.setItem('authToken', token), oldToken);
    await page.goto('/creator/dashboard');
    await expect(page).toHaveURL(/\/creator\/auth$/);
  });

  await test.step('asks for a reset link from the sign-in page', async () => {
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email Address').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText(/If an account exists for that address/)).toBeVisible();
    await expectAccessible(page, 'forgot password page after sending');
  });

  await test.step('opens the mailed link and sets a new password', async () => {
    const mail = await mailTo(request, email, /Reset your password/);
    const link = /https?:\/\/\S+\/reset-password#token=[\w-]+/.exec(mail.text)?.[0] ?? '';
    expect(link.startsWith(`${E2E.creatorOrigin}/reset-password#token=`)).toBe(true);
    await page.goto(link);
    await expect(page.getByLabel('New Password', { exact: true })).toBeVisible();
    await expectAccessible(page, 'reset password page');
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('Your password was reset. Sign in with the new password.')).toBeVisible();

    // The link works once (a fresh page load, not the same page's state).
    await page.goto('/');
    await page.goto(link);
    await page.getByLabel('New Password', { exact: true }).fill('another-orchard-lamp-59');
    await page.getByLabel('Repeat New Password').fill('another-orchard-lamp-59');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText(/This reset link is invalid or has expired/)).toBeVisible();
  });

  await test.step('the old password is refused and the new one signs in', async () => {
    await page.goto('/creator/auth');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Invalid email or password.')).toBeVisible();
    await expectAccessible(page, 'sign-in page with a refused password');
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  await test.step('is no platform administrator: no status link, and the page says who may see it', async () => {
    await expect(page.getByRole('link', { name: 'Account' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Platform status' })).toHaveCount(0);
    await page.goto('/admin/status');
    await expect(page.getByRole('alert')).toHaveText('Only platform administrators can see the platform status');
  });
});

test('a platform administrator opens the platform status from the header and reads every service', async ({
  page,
  request,
}) => {
  await test.step('registers the account ADMIN_EMAILS names (or signs in, when a kept database has it)', async () => {
    const credentials = { email: E2E_ADMIN_EMAIL, password: PASSWORD };
    let response = await request.post(`${E2E.creatorOrigin}/api/auth/register`, { data: credentials });
    if (response.status() === 409)
      response = await request.post(`${E2E.creatorOrigin}/api/auth/login`, { data: credentials });
    expect(response.ok(), await response.text()).toBe(true);
    await signInCreator(page, await response.json());
  });

  await test.step('follows the header link to the status page: four services, the Python runner, states in words', async () => {
    await page.goto('/creator/dashboard');
    await page.getByRole('link', { name: 'Platform status' }).click();
    await expect(page).toHaveURL(/\/admin\/status$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Platform status' })).toBeVisible();
    await expect(page.getByText(/^Checked at /)).toBeVisible();
    for (const service of ['exam-service', 'results-service', 'llm-gateway', 'workspace-orchestrator'])
      await expect(page.getByRole('region', { name: service })).toBeVisible();
    const orchestrator = page.getByRole('region', { name: 'workspace-orchestrator' });
    const python = orchestrator.getByRole('row').filter({ hasText: 'code runner: python' });
    await expect(python).toHaveCount(1);
    // Whatever this machine has built, the state is written out, not only coloured.
    await expect(python.getByRole('cell').nth(1)).toHaveText(/^(OK|Degraded|Failing)$/);
    await expectAccessible(page, 'platform status page');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('region', { name: 'exam-service' })).toBeVisible();
  });
});
