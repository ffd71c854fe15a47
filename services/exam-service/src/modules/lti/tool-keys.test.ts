import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, createLocalJWKSet, SignJWT, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { ltiToolKeys } from '../../db/schema.ts';
import { buildTestApp, createCreator, TEST_ENCRYPTION_KEY, type TestApp } from '../../testing/app.ts';
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
  // The test database is shared with other suites, which register platforms and make keys too: the assertions are
  // about the keys of the registrations these tests make.
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  /** A registration of a made-up LMS; registering makes its key. */
  async function register() {
    const creator = await createCreator(app);
    const lms = `https://lms-${randomUUID().slice(0, 8)}.example.test`;
    const response = await app.inject({
      method: 'POST',
      url: '/api/lti/platforms',
      headers: creator.headers,
      payload: {
        name: 'LMS',
        issuer: lms,
        clientId: 'tool-client',
        authLoginUrl: `${lms}/auth`,
        authTokenUrl: `${lms}/token`,
        jwksUrl: `${lms}/jwks`,
        deploymentIds: ['d1'],
      },
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ platform: { id: string } }>().platform.id;
  }
  const activeKids = async (platformId: string) =>
    (
      await app.examDatabase.db
        .select()
        .from(ltiToolKeys)
        .where(and(eq(ltiToolKeys.platformId, platformId), isNull(ltiToolKeys.retiredAt)))
    ).map((r) => r.kid);

  const signWith = async (keys: ReturnType<typeof keysAt>, platformId: string) => {
    const { kid, privateKey } = await keys.signingKey(platformId);
    return new SignJWT({ hello: 'platform' })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  };

  it('gives every registration its own signing key, published in /lti/jwks before the LMS meets it', async () => {
    const [first, second] = [await register(), await register()];
    const [firstKids, secondKids] = [await activeKids(first), await activeKids(second)];
    expect(firstKids).toHaveLength(1);
    expect(secondKids).toHaveLength(1);
    expect(firstKids[0]).not.toBe(secondKids[0]);
    const keys = keysAt(60);
    expect((await keys.signingKey(first)).kid).toBe(firstKids[0]);
    expect((await keys.signingKey(second)).kid).toBe(secondKids[0]);

    const response = await app.inject({ method: 'GET', url: '/lti/jwks' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const jwks = response.json() as JSONWebKeySet;
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([firstKids[0], secondKids[0]]));
    for (const key of jwks.keys) expect(key).not.toHaveProperty('d');
    const jwt = await signWith(keys, second);
    expect(decodeProtectedHeader(jwt).kid).toBe(secondKids[0]);
    await expect(jwtVerify(jwt, createLocalJWKSet(jwks))).resolves.toMatchObject({ payload: { hello: 'platform' } });
  });

  it('creates one key for replicas asking at once for a registration without one, and stores its private half encrypted', async () => {
    const platformId = await register();
    await app.examDatabase.db.delete(ltiToolKeys).where(eq(ltiToolKeys.platformId, platformId));
    const replicas = [keysAt(60), keysAt(60), keysAt(60)];
    const kids = new Set((await Promise.all(replicas.map((k) => k.signingKey(platformId)))).map((k) => k.kid));
    expect(kids.size).toBe(1);
    const rows = await app.examDatabase.db.select().from(ltiToolKeys).where(eq(ltiToolKeys.platformId, platformId));
    expect(rows.map((r) => r.kid)).toEqual([...kids]);
    expect(rows[0]!.encryptedPrivateKey).toMatch(/^v1\./);
    expect(rows[0]!.encryptedPrivateKey).not.toContain('PRIVATE KEY');
  });

  it("after a registration's rotation signs with its new key, leaves other registrations' keys alone, and keeps the old one published for the grace period", async () => {
    const [platformId, bystander] = [await register(), await register()];
    const keys = keysAt(3600);
    const before = await keys.signingKey(platformId);
    const bystanderKid = (await keys.signingKey(bystander)).kid;
    const signedBefore = await signWith(keys, platformId);
    now = new Date(now.getTime() + 1000);
    const { kid, retired } = await keys.rotate(platformId);
    expect(retired).toEqual([before.kid]);
    expect((await keys.signingKey(platformId)).kid).toBe(kid);
    expect((await keys.signingKey(bystander)).kid).toBe(bystanderKid);
    expect(decodeProtectedHeader(await signWith(keys, platformId)).kid).toBe(kid);

    const published = await keys.jwks();
    expect(published.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([kid, before.kid, bystanderKid]));
    await expect(jwtVerify(signedBefore, createLocalJWKSet(published))).resolves.toBeDefined();

    now = new Date(now.getTime() + 3601 * 1000);
    const later = (await keys.jwks()).keys.map((k) => k.kid);
    expect(later).toEqual(expect.arrayContaining([kid, bystanderKid]));
    expect(later).not.toContain(before.kid);
  });

  it('rotates every registration at once (lti:rotate-key without --platform)', async () => {
    const [first, second] = [await register(), await register()];
    const keys = keysAt(3600);
    const old = [(await keys.signingKey(first)).kid, (await keys.signingKey(second)).kid];
    now = new Date(now.getTime() + 1000);
    const rotated = await keys.rotateAll();
    const ofFirst = rotated.find((r) => r.platformId === first)!;
    const ofSecond = rotated.find((r) => r.platformId === second)!;
    expect(ofFirst.retired).toEqual([old[0]]);
    expect(ofSecond.retired).toEqual([old[1]]);
    expect((await keys.signingKey(first)).kid).toBe(ofFirst.kid);
    expect((await keys.signingKey(second)).kid).toBe(ofSecond.kid);
    expect(ofFirst.kid).not.toBe(ofSecond.kid);
  });

  it('refuses to make a key for a registration that does not exist', async () => {
    await expect(keysAt(60).signingKey(`gone-${randomUUID()}`)).rejects.toThrow(/not registered/);
  });
});
