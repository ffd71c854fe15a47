import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBaseApp } from '../base-app.ts';
import type { App } from '../create-server.ts';
import { TEST_SECRETS, testCreatorSessions } from '../testing.ts';
import { attemptOf, creatorOf, optionalClaims, workspaceAgentOf } from './auth.ts';

describe('auth guards', () => {
  let app: App;
  let sessions: ReturnType<typeof testCreatorSessions>;
  beforeEach(async () => {
    sessions = testCreatorSessions();
    app = (await createBaseApp({
      service: 'test-service',
      logLevel: 'silent',
      jwtSecret: TEST_SECRETS.JWT_SECRET,
      internalToken: TEST_SECRETS.INTERNAL_TOKEN,
      creatorSessions: sessions,
      checks: {},
    })) as App;
    app.get('/creator', { onRequest: app.requireCreator }, (request) => ({ sub: creatorOf(request).sub }));
    app.get('/either', { onRequest: app.requireCreatorOrAttempt }, (request) => ({ kind: request.user.kind }));
    app.get('/optional', async (request) => ({ kind: (await optionalClaims(request))?.kind ?? null }));
    app.get('/attempt', { onRequest: app.requireAttempt }, (request) => ({ id: attemptOf(request).sub }));
    app.get('/internal', { onRequest: app.requireInternal }, () => ({ ok: true }));
    await app.ready();
  });
  afterEach(() => app.close());

  const creatorToken = (sid = 's-1') => app.jwt.sign({ kind: 'creator', sub: 'user-1', email: 'a@example.test', sid });

  it('refuses a creator token whose session was closed, on every guard that accepts creators', async () => {
    const token = creatorToken('s-closed');
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.inject({ url: '/creator', headers })).statusCode).toBe(200);
    sessions.revoke('s-closed');
    const refused = await app.inject({ url: '/creator', headers });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe('Your session has ended. Please sign in again.');
    expect((await app.inject({ url: '/either', headers })).statusCode).toBe(401);
    expect((await app.inject({ url: '/optional', headers })).json()).toEqual({ kind: null });
    // Another session of the same creator is untouched.
    const other = { authorization: `Bearer ${creatorToken('s-open')}` };
    expect((await app.inject({ url: '/either', headers: other })).json()).toEqual({ kind: 'creator' });
    expect((await app.inject({ url: '/optional', headers: other })).json()).toEqual({ kind: 'creator' });
  });

  it('answers 401 for a creator token without a session id (issued before sessions existed)', async () => {
    const legacy = app.jwt.sign({ kind: 'creator', sub: 'user-1', email: 'a@example.test' } as never);
    const response = await app.inject({ url: '/creator', headers: { authorization: `Bearer ${legacy}` } });
    expect(response.statusCode).toBe(401);
  });

  it('lets a creator token through the creator guard', async () => {
    const response = await app.inject({ url: '/creator', headers: { authorization: `Bearer ${creatorToken()}` } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ sub: 'user-1' });
  });

  it('refuses a token once it expires, although it was verified (and remembered) before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const token = app.jwt.sign(
        { kind: 'creator', sub: 'user-1', email: 'a@example.test', sid: 's-1' },
        {
          expiresIn: '60s',
        },
      );
      const headers = { authorization: `Bearer ${token}` };
      expect((await app.inject({ url: '/creator', headers })).statusCode).toBe(200);
      expect((await app.inject({ url: '/creator', headers })).statusCode).toBe(200);
      vi.setSystemTime(Date.now() + 61_000);
      expect((await app.inject({ url: '/creator', headers })).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 401 without a token and with a token signed by another secret', async () => {
    expect((await app.inject({ url: '/creator' })).statusCode).toBe(401);
    const forged = creatorToken().replace(/\.[^.]+$/, '.c2lnbmF0dXJl');
    const response = await app.inject({ url: '/creator', headers: { authorization: `Bearer ${forged}` } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('answers 403 when a creator token asks for an attempt route', async () => {
    const response = await app.inject({ url: '/attempt', headers: { authorization: `Bearer ${creatorToken()}` } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
  });

  it('answers 401 for an expired token', async () => {
    const expired = app.jwt.sign(
      { kind: 'creator', sub: 'user-1', email: 'a@example.test', sid: 's-1' },
      { expiresIn: -10 },
    );
    const response = await app.inject({ url: '/creator', headers: { authorization: `Bearer ${expired}` } });
    expect(response.statusCode).toBe(401);
  });

  it('accepts only the exact internal token on internal routes', async () => {
    const ok = await app.inject({ url: '/internal', headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN } });
    expect(ok.statusCode).toBe(200);
    const wrong = await app.inject({
      url: '/internal',
      headers: { 'x-internal-token': 'x'.repeat(TEST_SECRETS.INTERNAL_TOKEN.length) },
    });
    expect(wrong.statusCode).toBe(401);
    const short = await app.inject({ url: '/internal', headers: { 'x-internal-token': 'short' } });
    expect(short.statusCode).toBe(401);
  });
});

describe('attempt tokens', () => {
  it('lets an attempt token through the attempt guard and refuses it on creator routes', async () => {
    const app = (await createBaseApp({
      service: 'test-service',
      logLevel: 'silent',
      jwtSecret: TEST_SECRETS.JWT_SECRET,
      internalToken: TEST_SECRETS.INTERNAL_TOKEN,
      creatorSessions: testCreatorSessions(),
      checks: {},
    })) as App;
    app.get('/attempt', { onRequest: app.requireAttempt }, (request) => ({ id: attemptOf(request).sub }));
    app.get('/creator', { onRequest: app.requireCreator }, () => ({}));
    const token = app.jwt.sign({
      kind: 'attempt',
      sub: 'attempt-1',
      examId: 'exam-1',
      ownerId: 'user-1',
      name: 'Ada',
      studentId: 's-1',
    });
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.inject({ url: '/attempt', headers })).json()).toEqual({ id: 'attempt-1' });
    expect((await app.inject({ url: '/creator', headers })).statusCode).toBe(403);
    await app.close();
  });
});

describe('workspace agent tokens', () => {
  let app: App;
  beforeEach(async () => {
    app = (await createBaseApp({
      service: 'test-service',
      logLevel: 'silent',
      jwtSecret: TEST_SECRETS.JWT_SECRET,
      internalToken: TEST_SECRETS.INTERNAL_TOKEN,
      creatorSessions: testCreatorSessions(),
      checks: {},
    })) as App;
    app.get('/agent', { onRequest: app.requireWorkspaceAgent }, (request) => workspaceAgentOf(request));
    app.get('/attempt', { onRequest: app.requireAttempt }, () => ({}));
    app.get('/creator', { onRequest: app.requireCreator }, () => ({}));
    app.get('/either', { onRequest: app.requireCreatorOrAttempt }, () => ({}));
    app.get('/optional', async (request) => ({ kind: (await optionalClaims(request))?.kind ?? null }));
    await app.ready();
  });
  afterEach(() => app.close());

  const claims = { kind: 'workspace-agent', sub: 'attempt-1', examId: 'exam-1', sessionId: 'ws-1', agent: 'codex' };
  const agentToken = () => app.jwt.sign(claims as never);

  it('lets an agent token through the agent guard as a Bearer token (OpenAI clients) or x-api-key (Anthropic clients)', async () => {
    const bearer = await app.inject({ url: '/agent', headers: { authorization: `Bearer ${agentToken()}` } });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json()).toMatchObject(claims);
    const apiKey = await app.inject({ url: '/agent', headers: { 'x-api-key': agentToken() } });
    expect(apiKey.statusCode).toBe(200);
    expect(apiKey.json()).toMatchObject(claims);
  });

  it('refuses an agent token on every other guard, and optional auth does not see it', async () => {
    const headers = { authorization: `Bearer ${agentToken()}` };
    for (const url of ['/attempt', '/creator', '/either']) {
      const response = await app.inject({ url, headers });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
    }
    expect((await app.inject({ url: '/optional', headers })).json()).toEqual({ kind: null });
  });

  it('refuses creator and attempt tokens with 403, and a missing, forged or expired token with 401', async () => {
    const creator = app.jwt.sign({ kind: 'creator', sub: 'user-1', email: 'a@example.test', sid: 's-1' });
    const attempt = app.jwt.sign({
      kind: 'attempt',
      sub: 'attempt-1',
      examId: 'exam-1',
      ownerId: 'user-1',
      name: 'Ada',
      studentId: 's-1',
    });
    expect((await app.inject({ url: '/agent', headers: { authorization: `Bearer ${creator}` } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/agent', headers: { 'x-api-key': attempt } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/agent' })).statusCode).toBe(401);
    const forged = agentToken().replace(/\.[^.]+$/, '.c2lnbmF0dXJl');
    expect((await app.inject({ url: '/agent', headers: { 'x-api-key': forged } })).statusCode).toBe(401);
    const expired = app.jwt.sign(claims as never, { expiresIn: -10 });
    expect((await app.inject({ url: '/agent', headers: { authorization: `Bearer ${expired}` } })).statusCode).toBe(401);
  });
});
