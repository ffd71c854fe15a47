import { LtiMessages, LtiPlatformEnvelopeSchema, LtiPlatformListSchema } from '@exam/domain/lti';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, type TestApp } from '../../testing/app.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;

const registration = (overrides: Record<string, unknown> = {}) => ({
  name: 'Canvas',
  issuer: 'https://canvas.example.edu',
  clientId: `client-${randomUUID()}`,
  authLoginUrl: 'https://canvas.example.edu/api/lti/authorize_redirect',
  authTokenUrl: 'https://canvas.example.edu/login/oauth2/token',
  jwksUrl: 'https://canvas.example.edu/api/lti/security/jwks',
  deploymentIds: ['1:abc'],
  ...overrides,
});

describe('LTI platform registrations', () => {
  let app: TestApp;
  let owner: Creator;
  let other: Creator;
  beforeAll(async () => {
    app = await buildTestApp({ env: { LTI_TOOL_ORIGIN: 'https://creator.example.test' } });
    owner = await createCreator(app);
    other = await createCreator(app);
  });
  afterAll(() => app.close());

  const create = (creator: Creator, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/lti/platforms', headers: creator.headers, payload });

  it('registers, lists, reads, updates and deletes a platform for its owner', async () => {
    const created = await create(owner, registration({ deploymentIds: ['1:abc', '1:abc', '2:def'] }));
    expect(created.statusCode).toBe(201);
    const platform = LtiPlatformEnvelopeSchema.parse(created.json()).platform;
    expect(platform.deploymentIds).toEqual(['1:abc', '2:def']);

    const listed = await app.inject({ method: 'GET', url: '/api/lti/platforms', headers: owner.headers });
    expect(LtiPlatformListSchema.parse(listed.json()).platforms.map((p) => p.id)).toContain(platform.id);

    const updated = await app.inject({
      method: 'PUT',
      url: `/api/lti/platforms/${platform.id}`,
      headers: owner.headers,
      payload: registration({ clientId: platform.clientId, name: 'Canvas (production)' }),
    });
    expect(updated.statusCode).toBe(200);
    expect(LtiPlatformEnvelopeSchema.parse(updated.json()).platform.name).toBe('Canvas (production)');

    const read = await app.inject({ method: 'GET', url: `/api/lti/platforms/${platform.id}`, headers: owner.headers });
    expect(LtiPlatformEnvelopeSchema.parse(read.json()).platform.deploymentIds).toEqual(['1:abc']);

    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/lti/platforms/${platform.id}`,
      headers: owner.headers,
    });
    expect(removed.json()).toEqual({ id: platform.id });
    const gone = await app.inject({ method: 'GET', url: `/api/lti/platforms/${platform.id}`, headers: owner.headers });
    expect(gone.statusCode).toBe(404);
  });

  it.each([
    ['issuer', { issuer: 'http://canvas.example.edu' }, LtiMessages.httpsRequired],
    ['jwksUrl', { jwksUrl: 'ftp://canvas.example.edu/jwks' }, LtiMessages.httpsRequired],
    ['authLoginUrl', { authLoginUrl: 'not a url' }, LtiMessages.badUrl],
    ['deploymentIds', { deploymentIds: [] }, LtiMessages.deploymentRequired],
    ['clientId', { clientId: '  ' }, 'Client ID is required'],
  ])('answers 400 naming %s when it is not acceptable', async (field, overrides, message) => {
    const response = await create(owner, registration(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues).toContainEqual({ path: field, message });
  });

  const onThisMachine = {
    issuer: 'http://localhost:9000',
    authLoginUrl: 'http://127.0.0.1:9000/auth',
    authTokenUrl: 'http://localhost:9000/token',
    jwksUrl: 'http://127.0.0.1:9000/jwks',
  };

  it('refuses plain http on this machine with 400 naming each field unless LTI_ALLOW_LOOPBACK_HTTP is set', async () => {
    const response = await create(owner, registration(onThisMachine));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues.map((i: { path: string }) => i.path)).toEqual([
      'issuer',
      'authLoginUrl',
      'authTokenUrl',
      'jwksUrl',
    ]);
    const listed = await app.inject({ method: 'GET', url: '/api/lti/platforms', headers: owner.headers });
    expect(LtiPlatformListSchema.parse(listed.json()).platforms.map((p) => p.issuer)).not.toContain(
      onThisMachine.issuer,
    );
  });

  it('accepts plain http on localhost and 127.0.0.1 where LTI_ALLOW_LOOPBACK_HTTP is set (development)', async () => {
    const development = await buildTestApp({
      env: { LTI_TOOL_ORIGIN: 'https://creator.example.test', LTI_ALLOW_LOOPBACK_HTTP: 'true' },
    });
    try {
      const creator = await createCreator(development);
      const response = await development.inject({
        method: 'POST',
        url: '/api/lti/platforms',
        headers: creator.headers,
        payload: registration({ ...onThisMachine, clientId: `dev-${Date.now()}` }),
      });
      expect(response.statusCode).toBe(201);
    } finally {
      await development.close();
    }
  });

  it('answers 409 when the issuer and client id are registered already, by anyone', async () => {
    const body = registration();
    expect((await create(owner, body)).statusCode).toBe(201);
    const again = await create(other, body);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.issues).toContainEqual({ path: 'clientId', message: LtiMessages.duplicate });
  });

  it('returns 404 when another creator reads, changes or deletes the platform, and never lists it', async () => {
    const platform = LtiPlatformEnvelopeSchema.parse((await create(owner, registration())).json()).platform;
    const url = `/api/lti/platforms/${platform.id}`;
    expect((await app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(404);
    const put = await app.inject({ method: 'PUT', url, headers: other.headers, payload: registration() });
    expect(put.statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url, headers: other.headers })).statusCode).toBe(404);
    const listed = await app.inject({ method: 'GET', url: '/api/lti/platforms', headers: other.headers });
    expect(LtiPlatformListSchema.parse(listed.json()).platforms.map((p) => p.id)).not.toContain(platform.id);
    const still = await app.inject({ method: 'GET', url, headers: owner.headers });
    expect(LtiPlatformEnvelopeSchema.parse(still.json()).platform.name).toBe('Canvas');
  });

  it('answers 401 without a creator token', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/lti/platforms' });
    expect(response.statusCode).toBe(401);
  });

  it("shows the tool's URLs under LTI_TOOL_ORIGIN", async () => {
    const response = await app.inject({ method: 'GET', url: '/api/lti/tool-configuration', headers: owner.headers });
    expect(response.json()).toEqual({
      loginUrl: 'https://creator.example.test/lti/login',
      launchUrl: 'https://creator.example.test/lti/launch',
      deepLinkingUrl: 'https://creator.example.test/lti/launch',
      jwksUrl: 'https://creator.example.test/lti/jwks',
    });
  });
});
