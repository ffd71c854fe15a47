import { exportJWK, generateKeyPair, SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createLtiEgress } from '../../adapters/lti-egress.ts';
import { createPlatformKeys } from './platform-keys.ts';

describe("a platform's key set", () => {
  it('is fetched through the fetch it is given (the LTI egress guard), not around it', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    const asked: string[] = [];
    const keys = createPlatformKeys(async (input) => {
      asked.push(String(input));
      return Response.json({ keys: [jwk] });
    });
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey);
    await expect(jwtVerify(token, keys('https://lms.example.test/jwks'))).resolves.toBeDefined();
    expect(asked).toEqual(['https://lms.example.test/jwks']);
  });

  it('never calls a JWKS URL on this machine when loopback is not allowed', async () => {
    let called = false;
    const guarded = createLtiEgress({ allowLocal: false }).guard(async () => {
      called = true;
      return Response.json({ keys: [] });
    });
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign((await generateKeyPair('RS256')).privateKey);
    await expect(jwtVerify(token, createPlatformKeys(guarded)('http://127.0.0.1:4001/internal/jwks'))).rejects.toThrow(
      /not https/,
    );
    expect(called).toBe(false);
  });
});
