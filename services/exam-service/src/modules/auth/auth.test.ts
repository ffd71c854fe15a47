import { AuthMessages } from '@exam/domain/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator } from '../../testing/app.ts';

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
      payload: { email, password: 'secret123' },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.user.email).toBe(email);
    expect(body.token.split('.')).toHaveLength(3);
    expect(JSON.stringify(body)).not.toContain('secret123');
  });

  it('refuses a duplicate email with the spec message', async () => {
    const creator = await createCreator(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: creator.email, password: 'another1' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(AuthMessages.userExists);
  });

  it('rejects a short password with 400 naming the field', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'short@example.test', password: '123' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues[0].path).toBe('password');
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'short@example.test', password: '123456' },
    });
    expect(login.json().error.message).toBe(AuthMessages.userNotFound);
  });

  it('signs in with the right password and refuses a wrong one', async () => {
    const creator = await createCreator(app);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: 'secret123' },
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
    expect(wrong.json().error.message).toBe(AuthMessages.invalidPassword);
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
      payload: { email: creator.email, password: 'secret123' },
      remoteAddress: address,
    });
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: 'secret123' },
      remoteAddress: '10.8.8.8',
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});
