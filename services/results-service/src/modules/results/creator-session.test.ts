import { AuthMessages } from '@exam/domain/auth';
import { TEST_CREATOR_SESSION, testCreatorSessions } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';

describe('creator sessions', () => {
  const sessions = testCreatorSessions();
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { creatorSessions: sessions } });
  });
  afterAll(() => app.close());

  it('refuses a creator token on the next request once exam-service says its session ended', async () => {
    const headers = creatorHeaders(app, `creator-${Date.now()}`);
    expect((await app.inject({ url: '/api/results', headers })).statusCode).toBe(200);
    sessions.revoke(TEST_CREATOR_SESSION);
    const refused = await app.inject({ url: '/api/results', headers });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe(AuthMessages.sessionEnded);
  });
});
