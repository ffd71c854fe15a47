import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';

const MAX_SETS = 200;

/**
 * The key set behind each platform's JWKS URL, one per URL: jose caches the fetched keys (and fetches again,
 * at most every 30 s, when a token names a kid it does not have, which is how a platform's rotation is picked
 * up). A derived fact any replica fetches for itself; bounded, the oldest URL forgotten first. `fetch` is the
 * LTI egress guard (adapters/lti-egress.ts): a JWKS URL is a creator's input, so it is called only where any
 * other LMS URL may be.
 */
export function createPlatformKeys(
  fetch: typeof globalThis.fetch = globalThis.fetch,
): (jwksUrl: string) => JWTVerifyGetKey {
  const sets = new Map<string, JWTVerifyGetKey>();
  return (jwksUrl) => {
    let set = sets.get(jwksUrl);
    if (!set) {
      set = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000, [customFetch]: fetch });
      sets.set(jwksUrl, set);
      if (sets.size > MAX_SETS) sets.delete(sets.keys().next().value!);
    }
    return set;
  };
}
