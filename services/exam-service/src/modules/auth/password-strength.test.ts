import { createHash, randomBytes } from 'node:crypto';
import { AuthMessages } from '@exam/domain/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, TEST_PASSWORD, type TestApp } from '../../testing/app.ts';
import { createPasswordResetRepository } from './password-reset.repository.ts';

/** Guessable passwords every one of which passed the length and common-list rules alone. */
const WEAK = ['Password1!', 'P@ssw0rd123', 'letmein1234', 'aaaaaaaaaaaa'];

let seq = 0;
const uniqueEmail = (name: string) => `${name}.${Date.now() % 1_000_000}${++seq}@campus.example.test`;

/** The 400 a weak password gets: the field, the fixed sentence and zxcvbn's reason after it. */
function expectWeak(response: { statusCode: number; json(): unknown }, field: string) {
  expect(response.statusCode).toBe(400);
  const issues = (response.json() as { error: { issues: { path: string; message: string }[] } }).error.issues;
  expect(issues).toHaveLength(1);
  expect(issues[0]!.path).toBe(field);
  expect(issues[0]!.message.startsWith(`${AuthMessages.weakPassword} `)).toBe(true);
  // zxcvbn's own feedback follows: at least one more sentence.
  expect(issues[0]!.message.length).toBeGreaterThan(AuthMessages.weakPassword.length + 10);
  return issues[0]!.message;
}

describe('password strength (zxcvbn with the user’s own words)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const register = (email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password } });

  it.each(WEAK)('refuses %s at sign-up with 400 naming password and the reason, and creates nothing', async (weak) => {
    const email = uniqueEmail('weak');
    expectWeak(await register(email, weak), 'password');
    expect((await register(email, TEST_PASSWORD)).statusCode).toBe(201);
  });

  it('refuses the e-mail itself, and the name in it, as the password', async () => {
    const email = uniqueEmail('marguerite.villeneuve');
    const itself = expectWeak(await register(email, email), 'password');
    expect(itself).toContain('personal');
    const [local] = email.split('@');
    expectWeak(await register(email, `${local}`), 'password');
    expect((await register(email, TEST_PASSWORD)).statusCode).toBe(201);
  });

  it('refuses a weak new password on change with 400 naming newPassword, and keeps the old one', async () => {
    const creator = await createCreator(app);
    const change = await app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers: creator.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'P@ssw0rd123' },
    });
    expectWeak(change, 'newPassword');
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  it('refuses a weak password on reset with 400 naming password, and keeps the link usable', async () => {
    const creator = await createCreator(app);
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await createPasswordResetRepository(app.examDatabase).insertToken({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      userId: creator.user.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 10 * 60_000),
    });
    const confirm = (password: string) =>
      app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } });
    expectWeak(await confirm('letmein1234'), 'password');
    expectWeak(await confirm(creator.email), 'password');
    expect((await confirm('lantern-fjord-cobalt-93')).statusCode).toBe(200);
  });

  it('keeps the event loop turning while a slow password is scored', async () => {
    // A repeated pattern as long as is scored: the slowest kind of input for zxcvbn (seconds on a busy machine).
    const slow = 'aB3$'.repeat(16);
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const response = await register(uniqueEmail('slow'), slow);
    const took = performance.now() - started;
    clearInterval(ticker);
    expectWeak(response, 'password');
    // Scored on this thread, the check would be one gap as long as the whole request.
    expect(longestGap).toBeLessThan(took / 2);
  });
});

describe('password strength check past its time limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { PASSWORD_STRENGTH_TIMEOUT_MS: '100' } });
  });
  afterAll(() => app.close());

  it('refuses a password that cannot be scored in time with 400, and the next sign-up is checked by a fresh worker', async () => {
    const email = uniqueEmail('timeout');
    // Warm the worker (its dictionaries load before the limit starts) with a weak one, which answers quickly.
    expectWeak(
      await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: 'aaaaaaaaaaaa' } }),
      'password',
    );
    // One worker scores checks one after another, and each check's limit runs from the same moment: of 20 sign-ups
    // at once, the later ones wait behind the earlier ones' scoring (tens of milliseconds each) far past the 100 ms
    // limit, however fast this machine is. (One slow password alone took 40–240 ms here, so on a quiet machine it
    // could be scored in time.)
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { email: uniqueEmail(`timeout-${i}`), password: 'qwertyuiop1234567890'.repeat(4) },
        }),
      ),
    );
    expect(responses.every((response) => response.statusCode === 201 || response.statusCode === 400)).toBe(true);
    const timedOut = responses.filter((response) => response.statusCode === 400);
    expect(timedOut.length).toBeGreaterThan(0);
    for (const slow of timedOut) {
      expect(slow.json().error.issues).toEqual([
        { path: 'password', message: `${AuthMessages.weakPassword} ${AuthMessages.strengthTimeout}` },
      ]);
    }
    expectWeak(
      await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: 'Password1!' } }),
      'password',
    );
    // The sign-ups that pass the check hash their passwords, which takes seconds on a loaded two-core machine.
  }, 90_000);
});
