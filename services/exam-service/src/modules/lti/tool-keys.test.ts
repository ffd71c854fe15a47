import { decodeProtectedHeader, jwtVerify, createLocalJWKSet, SignJWT, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNull } from 'drizzle-orm';
import { ltiToolKeys } from '../../db/schema.ts';
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../../testing/app.ts';
import { createToolKeys } from './tool-keys.ts';

describe('the tool keys and JWKS', () => {
  let app: TestApp;
  let now = new Date('2030-01-01T00:00:00Z');
  const clock = { now: () => now };
  const keysAt = (graceSeconds: number) =>
    createToolKeys(app.examDatabase, {
      encryptionKey: Buffer.from(TEST_ENCRYPTION_KEY, 'base64url'),
      clock,
      graceSeconds,
    });
  // The test database is shared with other suites, which may have made a key already: the assertions are about
  // the keys these tests see, not about the table being empty.
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const signWith = async (keys: ReturnType<typeof keysAt>) => {
    const { kid, privateKey } = await keys.signingKey();
    return new SignJWT({ hello: 'platform' })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  };

  it('creates one signing key for replicas asking at once, publishes it, and stores the private half encrypted', async () => {
    const replicas = [keysAt(60), keysAt(60), keysAt(60)];
    const kids = new Set((await Promise.all(replicas.map((k) => k.signingKey()))).map((k) => k.kid));
    expect(kids.size).toBe(1);
    const rows = await app.examDatabase.db.select().from(ltiToolKeys).where(isNull(ltiToolKeys.retiredAt));
    expect(rows.map((r) => r.kid)).toEqual([...kids]);
    expect(rows[0]!.encryptedPrivateKey).toMatch(/^v1\./);
    expect(rows[0]!.encryptedPrivateKey).not.toContain('PRIVATE KEY');

    const response = await app.inject({ method: 'GET', url: '/lti/jwks' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const jwks = response.json() as JSONWebKeySet;
    expect(jwks.keys.map((k) => k.kid)).toContain([...kids][0]);
    for (const key of jwks.keys) expect(key).not.toHaveProperty('d');
    const jwt = await signWith(replicas[0]!);
    await expect(jwtVerify(jwt, createLocalJWKSet(jwks))).resolves.toMatchObject({ payload: { hello: 'platform' } });
  });

  it('after a rotation signs with the new key, keeps the old one published for the grace period, then drops it', async () => {
    const keys = keysAt(3600);
    const before = await keys.signingKey();
    const signedBefore = await signWith(keys);
    now = new Date(now.getTime() + 1000);
    const { kid, retired } = await keys.rotate();
    expect(retired).toContain(before.kid);
    expect((await keys.signingKey()).kid).toBe(kid);
    expect(decodeProtectedHeader(await signWith(keys)).kid).toBe(kid);

    const published = await keys.jwks();
    expect(published.keys[0]?.kid).toBe(kid);
    expect(published.keys.map((k) => k.kid)).toContain(before.kid);
    await expect(jwtVerify(signedBefore, createLocalJWKSet(published))).resolves.toBeDefined();

    now = new Date(now.getTime() + 3601 * 1000);
    expect((await keys.jwks()).keys.map((k) => k.kid)).toEqual([kid]);
  });
});
