import type { AddressInfo } from 'node:net';
import { AuthMessages } from '@exam/domain/auth';
import { createBaseApp } from '@exam/server-kit/base-app';
import { createRemoteCreatorSessions } from '@exam/server-kit/creator-sessions';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, sessionIdOf, TEST_PASSWORD, type TestApp } from '../../testing/app.ts';

describe('creator sessions', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const listExams = (token: string) => app.inject({ method: 'GET', url: '/api/exams', headers: bearer(token) });
  const signIn = async (email: string, password = TEST_PASSWORD) => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(response.statusCode).toBe(200);
    return (response.json() as { token: string }).token;
  };
  const post = (url: string, token: string, payload?: object) =>
    app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('refuses the token at once after sign-out, while another session of the creator goes on', async () => {
    const creator = await createCreator(app);
    const other = await signIn(creator.email);
    expect((await listExams(creator.token)).statusCode).toBe(200);

    expect((await post('/api/auth/logout', creator.token)).statusCode).toBe(200);
    const refused = await listExams(creator.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe(AuthMessages.sessionEnded);
    expect((await post('/api/auth/logout', creator.token)).statusCode).toBe(401);
    expect((await listExams(other)).statusCode).toBe(200);
  });

  it('ends every session of the creator on "sign out everywhere", and no one else’s', async () => {
    const creator = await createCreator(app);
    const bystander = await createCreator(app);
    const laptop = await signIn(creator.email);
    const phone = await signIn(creator.email);

    expect((await post('/api/auth/logout-all', phone)).statusCode).toBe(200);
    for (const token of [creator.token, laptop, phone]) expect((await listExams(token)).statusCode).toBe(401);
    expect((await listExams(bystander.token)).statusCode).toBe(200);
    // Signing in again opens a new session.
    expect((await listExams(await signIn(creator.email))).statusCode).toBe(200);
  });

  it('changes the password with the current one and ends the other sessions, not the one that asked', async () => {
    const creator = await createCreator(app);
    const stolen = await signIn(creator.email);
    const change = await post('/api/auth/password', creator.token, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'lantern-meadow-93-fjord',
    });
    expect(change.statusCode).toBe(200);
    expect((await listExams(stolen)).statusCode).toBe(401);
    expect((await listExams(creator.token)).statusCode).toBe(200);
    const old = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: creator.email, password: TEST_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    expect((await listExams(await signIn(creator.email, 'lantern-meadow-93-fjord'))).statusCode).toBe(200);
  });

  it('refuses a password change with a wrong current password (400 on currentPassword) and changes nothing', async () => {
    const creator = await createCreator(app);
    const other = await signIn(creator.email);
    const change = await post('/api/auth/password', creator.token, {
      currentPassword: 'not-the-password',
      newPassword: 'lantern-meadow-93-fjord',
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().error.issues).toEqual([
      { path: 'currentPassword', message: AuthMessages.wrongCurrentPassword },
    ]);
    expect((await listExams(other)).statusCode).toBe(200);
    await signIn(creator.email);
  });

  it('refuses a short or common new password with 400 naming newPassword, and keeps the old one', async () => {
    const creator = await createCreator(app);
    const short = await post('/api/auth/password', creator.token, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'abc123',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.issues[0]).toEqual({
      path: 'newPassword',
      message: 'Password must be at least 10 characters',
    });
    const common = await post('/api/auth/password', creator.token, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'Password123',
    });
    expect(common.statusCode).toBe(400);
    expect(common.json().error.issues).toEqual([{ path: 'newPassword', message: AuthMessages.commonPassword }]);
    await signIn(creator.email);
  });

  it('answers the owner of an open session on the internal route, 404 once it ended, 401 without the internal token', async () => {
    const creator = await createCreator(app);
    const url = `/internal/creator-sessions/${creator.sid}`;
    const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
    expect((await app.inject({ url })).statusCode).toBe(401);
    const open = await app.inject({ url, headers: internal });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({ userId: creator.user.id });
    await post('/api/auth/logout', creator.token);
    expect((await app.inject({ url, headers: internal })).statusCode).toBe(404);
  });
});

describe('password change throttling', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { LOGIN_ACCOUNT_FREE_FAILURES: '2', LOGIN_ACCOUNT_BACKOFF_SECONDS: '30' } });
  });
  afterAll(() => app.close());

  it('counts wrong current passwords like failed sign-ins, so a stolen session cannot guess the password', async () => {
    const creator = await createCreator(app);
    const attempt = (currentPassword: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: { authorization: `Bearer ${creator.token}` },
        payload: { currentPassword, newPassword: 'lantern-meadow-93-fjord' },
        remoteAddress: '203.0.113.50',
      });
    expect((await attempt('guess-one-x')).statusCode).toBe(400);
    expect((await attempt('guess-two-x')).statusCode).toBe(400);
    const slowed = await attempt(TEST_PASSWORD);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('30');
  });
});

/**
 * Another service (results-service, llm-gateway, workspace-orchestrator) checks a creator token through
 * server-kit's remote check against a running exam-service, over real HTTP, as production does.
 */
describe('creator sessions seen by another service', () => {
  let examService: TestApp;
  let other: Awaited<ReturnType<typeof createBaseApp>>;
  let remote: ReturnType<typeof createRemoteCreatorSessions>;
  beforeAll(async () => {
    examService = await buildTestApp();
    await examService.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(examService.server.address() as AddressInfo).port}`;
    remote = createRemoteCreatorSessions(url, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs: 1000 });
    other = await createBaseApp({
      service: 'results-service',
      logLevel: 'silent',
      jwtSecret: TEST_SECRETS.JWT_SECRET,
      internalToken: TEST_SECRETS.INTERNAL_TOKEN,
      creatorSessions: remote,
      checks: {},
    });
    other.get('/api/results', { onRequest: other.requireCreator }, (request) => ({ owner: creatorOf(request).sub }));
    await other.ready();
  });
  afterAll(async () => {
    await other.close();
    remote.close();
    await examService.close();
  });

  it('refuses a signed-out token on the very next request, and a token of another user’s session', async () => {
    const creator = await createCreator(examService);
    const headers = { authorization: `Bearer ${creator.token}` };
    const before = await other.inject({ url: '/api/results', headers });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ owner: creator.user.id });

    const stranger = await createCreator(examService);
    const borrowed = other.jwt.sign({
      kind: 'creator',
      sub: stranger.user.id,
      email: stranger.email,
      sid: creator.sid,
    });
    expect(
      (await other.inject({ url: '/api/results', headers: { authorization: `Bearer ${borrowed}` } })).statusCode,
    ).toBe(401);

    await examService.inject({ method: 'POST', url: '/api/auth/logout', headers });
    const after = await other.inject({ url: '/api/results', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.message).toBe(AuthMessages.sessionEnded);
    expect(sessionIdOf(creator.token)).toBe(creator.sid);
  });

  it('fails closed with 503 when exam-service cannot be reached', async () => {
    const creator = await createCreator(examService);
    const unreachable = createRemoteCreatorSessions('http://127.0.0.1:9', TEST_SECRETS.INTERNAL_TOKEN, {
      timeoutMs: 500,
    });
    const isolated = await createBaseApp({
      service: 'results-service',
      logLevel: 'silent',
      jwtSecret: TEST_SECRETS.JWT_SECRET,
      internalToken: TEST_SECRETS.INTERNAL_TOKEN,
      creatorSessions: unreachable,
      checks: {},
    });
    isolated.get('/api/results', { onRequest: isolated.requireCreator }, () => ({ ok: true }));
    const response = await isolated.inject({
      url: '/api/results',
      headers: { authorization: `Bearer ${creator.token}` },
    });
    expect(response.statusCode).toBe(503);
    await isolated.close();
    unreachable.close();
  });
});
