import { AuthMessages } from '@exam/domain/auth';
import { users } from '../../db/schema.ts';
import { INVALID_CREDENTIALS_MESSAGE } from './auth.service.ts';
import { hashPassword } from './password.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, TEST_PASSWORD } from '../../testing/app.ts';

describe('auth', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({ env: { LOGIN_MAX_FAILURES: '3' } });
  });
  afterAll(() => app.close());

  it('registers a creator and answers a token and the user', async () => {
    const email = `new-${Date.now()}@example.test`;
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.user.email).toBe(email);
    expect(body.token.split('.')).toHaveLength(3);
    expect(JSON.stringify(body)).not.toContain(TEST_PASSWORD);
  });

  it('refuses a duplicate email with the spec message', async () => {
    const creator = await createCreator(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: creator.email, password: 'another-long-one-7' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(AuthMessages.userExists);
  });

  it('refuses a password under 10 characters with 400 naming the field and the reason, and creates nothing', async () => {
    const email = `short-${Date.now()}@example.test`;
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: 'k7#pQ2x!' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues).toEqual([
      { path: 'password', message: 'Password must be at least 10 characters' },
    ]);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'k7#pQ2x!' },
    });
    expect(login.statusCode).toBe(401);
    expect(login.json().error.message).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  it.each(['password123', 'qwertyuiop', '1234567890', 'Iloveyou123'])(
    'refuses the common password %s with 400 naming the field, and creates nothing',
    async (password) => {
      const email = `common-${Date.now()}-${password.length}@example.test`;
      const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password } });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.issues).toEqual([{ path: 'password', message: AuthMessages.commonPassword }]);
      const again = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: TEST_PASSWORD },
      });
      expect(again.statusCode).toBe(201);
    },
  );

  it('still signs in an account whose password predates the policy', async () => {
    const email = `legacy-${Date.now()}@example.test`;
    const passwordHash = await hashPassword('123456', 1024);
    await app.examDatabase.db.insert(users).values({ id: `legacy-${Date.now()}`, email, passwordHash });
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: '123456' } });
    expect(login.statusCode).toBe(200);
  });

  it('signs in with the right password and refuses a wrong one', async () => {
    const creator = await createCreator(app);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: TEST_PASSWORD },
      remoteAddress: '10.0.0.1',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.id).toBe(creator.user.id);
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: 'wrong-pass' },
      remoteAddress: '10.0.0.1',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  it('throttles an address after repeated failures, even for the right password', async () => {
    const creator = await createCreator(app);
    const address = `10.9.${Date.now() % 250}.7`;
    for (let i = 0; i < 3; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: creator.email, password: 'nope-nope' },
        remoteAddress: address,
      });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: TEST_PASSWORD },
      remoteAddress: address,
    });
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: TEST_PASSWORD },
      remoteAddress: '10.8.8.8',
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('auth throttling behind proxies and per account', () => {
  const PROXY = '10.200.0.1';
  let nowMs = Date.now();
  const clock = { now: () => new Date(nowMs) };
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({
      env: {
        LOGIN_MAX_FAILURES: '3',
        LOGIN_ACCOUNT_FREE_FAILURES: '3',
        LOGIN_ACCOUNT_BACKOFF_SECONDS: '10',
        LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS: '40',
        TRUSTED_PROXIES: PROXY,
      },
      deps: { clock },
    });
  });
  afterAll(() => app.close());

  let seq = 0;
  const unique = () => `${Date.now() % 100000}-${++seq}`;
  const octet = () => (Date.now() + ++seq) % 250;
  const login = (email: string, password: string, remoteAddress: string, forwardedFor?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });

  it('counts an untrusted client by its own address however it rotates X-Forwarded-For', async () => {
    const client = `203.0.${octet()}.${octet()}`;
    const tried: string[] = [];
    for (let i = 0; i < 3; i++) {
      tried.push(`nobody-${unique()}@example.test`);
      const r = await login(tried[i]!, 'wrong-pass', client, `198.51.100.${i + 1}`);
      expect(r.statusCode).toBe(401);
    }
    const rotated = await login(tried[0]!, 'wrong-pass', client, '198.51.100.77');
    expect(rotated.statusCode).toBe(429);
    expect(rotated.json().error.code).toBe('RATE_LIMITED');
    expect(Number(rotated.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not let an untrusted client lock out another address by forging X-Forwarded-For', async () => {
    const victim = await createCreator(app);
    const victimAddress = `198.18.${octet()}.${octet()}`;
    const attacker = `203.0.${octet()}.${octet()}`;
    for (let i = 0; i < 3; i++) {
      await login(`nobody-${unique()}@example.test`, 'wrong-pass', attacker, victimAddress);
    }
    const ok = await login(victim.email, TEST_PASSWORD, victimAddress);
    expect(ok.statusCode).toBe(200);
  });

  it('counts the forwarded client address when the peer is a trusted proxy', async () => {
    const creator = await createCreator(app);
    const client = `198.19.${octet()}.${octet()}`;
    for (let i = 0; i < 2; i++) {
      const r = await login(`nobody-${unique()}@example.test`, 'wrong-pass', PROXY, client);
      expect(r.statusCode).toBe(401);
    }
    expect((await login(creator.email, 'wrong-pass', PROXY, client)).statusCode).toBe(401);
    expect((await login(creator.email, TEST_PASSWORD, PROXY, client)).statusCode).toBe(429);
    // Other clients behind the same proxy are not affected, nor is the client when it comes directly.
    expect((await login(creator.email, TEST_PASSWORD, PROXY, `198.19.${octet()}.1`)).statusCode).toBe(200);
  });

  it('lets a correct password for another account through an address past its limit, and keeps refusing the accounts it failed on', async () => {
    const guessed = await createCreator(app);
    const colleague = await createCreator(app);
    const sharedNat = `192.0.2.${octet()}`;
    expect((await login(guessed.email, 'wrong-pass-1', sharedNat)).statusCode).toBe(401);
    for (let i = 0; i < 2; i++) {
      expect((await login(`nobody-${unique()}@example.test`, 'wrong-pass', sharedNat)).statusCode).toBe(401);
    }
    // The address is past its 3 failures: the account it guessed at is refused before the password is looked at...
    const refused = await login(guessed.email, TEST_PASSWORD, sharedNat);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // ...while a colleague behind the same address signs in, more than once, and a new wrong guess is still only 401.
    expect((await login(colleague.email, TEST_PASSWORD, sharedNat)).statusCode).toBe(200);
    expect((await login(colleague.email, TEST_PASSWORD, sharedNat)).statusCode).toBe(200);
    const fresh = `nobody-${unique()}@example.test`;
    expect((await login(fresh, 'wrong-pass', sharedNat)).statusCode).toBe(401);
    // That success did not reset the address's count: the newly failed account is refused now too.
    expect((await login(fresh, 'wrong-pass', sharedNat)).statusCode).toBe(429);
    // The guessed account's owner elsewhere is unaffected.
    expect((await login(guessed.email, TEST_PASSWORD, `192.0.2.${octet()}`)).statusCode).toBe(200);
  });

  it('slows failures on one account from many addresses with a doubling backoff; other accounts are unaffected', async () => {
    const victim = await createCreator(app);
    const bystander = await createCreator(app);
    const from = () => `100.64.${octet()}.${octet()}`;
    for (let i = 0; i < 3; i++) {
      expect((await login(victim.email, `guess-${i}-x`, from())).statusCode).toBe(401);
    }
    const slowed = await login(victim.email, 'guess-3-x', from());
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().error.code).toBe('RATE_LIMITED');
    expect(slowed.headers['retry-after']).toBe('10');
    // Even the right password waits: a guesser must not learn anything while the account is slowed.
    expect((await login(victim.email, TEST_PASSWORD, from())).statusCode).toBe(429);
    expect((await login(bystander.email, TEST_PASSWORD, from())).statusCode).toBe(200);

    nowMs += 10_000;
    expect((await login(victim.email, 'guess-4-x', from())).statusCode).toBe(401);
    const doubled = await login(victim.email, 'guess-5-x', from());
    expect(doubled.statusCode).toBe(429);
    expect(doubled.headers['retry-after']).toBe('20');

    nowMs += 20_000;
    const owner = await login(victim.email, TEST_PASSWORD, from());
    expect(owner.statusCode).toBe(200);
    // The success reset the count: the next failures are free again.
    for (let i = 0; i < 3; i++) {
      expect((await login(victim.email, `again-${i}-x`, from())).statusCode).toBe(401);
    }
  });

  it('answers an unknown email and a wrong password with the same status and message', async () => {
    const creator = await createCreator(app);
    const unknown = await login(`nobody-${unique()}@example.test`, TEST_PASSWORD, `100.65.${octet()}.1`);
    const wrong = await login(creator.email, 'wrong-pass', `100.65.${octet()}.2`);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(unknown.json().error.message).not.toBe(AuthMessages.userNotFound);
    expect(unknown.json().error.message).not.toBe(AuthMessages.invalidPassword);
  });
});
