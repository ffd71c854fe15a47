import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { enterExam, examUrl } from './support/taker.ts';

/** The policy's directives by name. */
function directives(policy: string | undefined): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? '').split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

/** Every Content-Security-Policy report of the page (the event, and the console line Chromium writes). */
async function watchPolicyViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|apply|execute|frame|connect)/i.test(message.text()))
      violations.push(`${page.url()}: ${message.text()}`);
  });
  await page.exposeFunction('reportPolicyViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportPolicyViolation(text: string): void }).reportPolicyViolation;
      report(`${location.href}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sample})`);
    });
  });
  return violations;
}

test('both apps send the security headers on their pages', async ({ request }) => {
  for (const [origin, path] of [
    [E2E.creatorOrigin, '/creator/dashboard'],
    [E2E.takerOrigin, '/taker/start'],
  ] as const) {
    const response = await request.get(`${origin}${path}`);
    expect(response.status()).toBe(200);
    const headers = response.headers();
    const csp = directives(headers['content-security-policy']);
    expect(csp['script-src'], origin).toEqual(["'self'"]);
    expect(csp['style-src']?.[0]).toBe("'self'");
    expect(csp['style-src']?.[1]).toMatch(/^'nonce-[A-Za-z0-9+/=]+'$/);
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toContain('fullscreen=(self)');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['x-powered-by']).toBeUndefined();
    // Served over plain HTTP here, so no HSTS.
    expect(headers['strict-transport-security']).toBeUndefined();
    if (origin === E2E.creatorOrigin) {
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['frame-src']).toEqual(["'none'"]);
      // The LTI deep-linking response is a form post to the LMS (packages/web-config/src/security-headers.ts).
      expect(csp['form-action']).toEqual(["'self'", 'https:', 'http://localhost:*', 'http://127.0.0.1:*']);
    } else {
      expect(csp['form-action']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'self'"]);
      expect(csp['frame-src']).toEqual([E2E.workspaceOrigin]);
    }
  }
});

test('the built pages run under the policy with no violation', async ({ page, request }) => {
  const violations = await watchPolicyViolations(page);
  const creator = await registerCreator(request, 'headers-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Headers Journey',
    // Rich text under the policy: a highlighted fence (a constructed stylesheet) and KaTeX (inline styles, fonts).
    questions: [
      {
        ...question.coding('Print the answer', 'python'),
        content: 'Print it:\n\n```python\nprint(42)  # the answer\n```\n\nwhere $$x = \\frac{84}{2}$$.',
      },
    ],
  });

  await test.step('the creator app: landing, sign-in and its dashboard', async () => {
    await page.goto(`${E2E.creatorOrigin}/`);
    await page.getByRole('button', { name: 'Create Assessment' }).click();
    await expect(page).toHaveURL(/\/creator\/auth$/);
    await page.evaluate((session) => {
      localStorage.setItem('authToken', session.token);
      localStorage.setItem('user', JSON.stringify(session.user));
    }, creator);
    await page.goto(`${E2E.creatorOrigin}/creator/dashboard`);
    await expect(page.getByText('Headers Journey')).toBeVisible();
  });

  await test.step('the taker app: a toast styled by the bundled stylesheet', async () => {
    await page.goto(`${E2E.takerOrigin}/taker/start`);
    await page.getByLabel('Exam URL').fill(examUrl(exam.id));
    await page.getByRole('button', { name: 'Continue' }).click();
    // sonner's rules come from the bundled stylesheet, not a <style> it injects: its toaster is fixed on screen.
    const toaster = page.locator('[data-sonner-toaster]');
    await expect(toaster).toHaveCount(1);
    expect(await toaster.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
  });

  await test.step('the taker app: an exam page with a code editor', async () => {
    await enterExam(page, exam.id, { name: 'Ada Lovelace', studentId: 'H-1815' });
    await expect(page.locator('.cm-editor').first()).toBeVisible();
    await expect(page.locator('pre[data-highlighted="true"]')).toContainText('print(42)');
    await expect(page.locator('.katex .mfrac')).toBeVisible();
    await expectAccessible(page, 'exam room with a code editor, a code block and a formula');
  });

  expect(violations).toEqual([]);
});
